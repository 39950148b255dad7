#!/usr/bin/env node
// The `gemini-mcp` bin. Kept tiny: every command imports its heavy modules lazily so startup stays fast.
import { HELP_TEXT, InputError, parseCliArgs, type CliArgs, type InteractiveOptions } from './args.js';

type CommandModule = Record<string, unknown>;

/** A computed specifier keeps tsc from resolving modules that another engineer may not have written yet. */
async function importOptional(rel: string): Promise<CommandModule | undefined> {
  const url = new URL(rel, import.meta.url).href;
  try {
    return (await import(url)) as CommandModule;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(url.replace('file://', ''))) return undefined;
    throw err;
  }
}

async function runSubcommand(rel: string, fn: string, rest: string[]): Promise<number> {
  const mod = await importOptional(rel);
  const run = mod?.[fn] as ((argv: string[]) => Promise<number | void>) | undefined;
  if (!run) {
    process.stderr.write(`gemini-mcp: this build has no ${fn} (${rel} is missing).\n`);
    return 1;
  }
  const code = await run(rest);
  return typeof code === 'number' ? code : 0;
}

function isHeadless(args: CliArgs): boolean {
  if (args.prompt !== undefined) return true;
  if (!process.stdin.isTTY || !process.stdout.isTTY) return true;
  const env = process.env;
  return env.CI === 'true' || env.GITHUB_ACTIONS === 'true';
}

/** Reads piped stdin. With `-p` given, an idle pipe that never sends anything must not block the run. */
async function readStdin(idleMs: number | undefined): Promise<string> {
  if (process.stdin.isTTY) return '';
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const done = (): void => {
      if (timer) clearTimeout(timer);
      process.stdin.off('data', onData).off('end', done).off('error', done);
      process.stdin.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (c: Buffer): void => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      chunks.push(c);
    };
    if (idleMs !== undefined) timer = setTimeout(done, idleMs);
    process.stdin.on('data', onData).on('end', done).on('error', done);
  });
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === 'mcp') return runSubcommand('./mcp-command.js', 'runMcpCommand', rest);
  if (first === 'tools') return runSubcommand('./tools-command.js', 'runToolsCommand', rest);

  const args = parseCliArgs(argv);
  if (args.help) {
    process.stdout.write(HELP_TEXT);
    return 0;
  }
  if (args.version) {
    const { VERSION } = await import('../../servers/common/version.js');
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (isHeadless(args)) {
    const stdinText = await readStdin(args.prompt !== undefined || args.positional !== undefined ? 500 : undefined);
    const { runHeadless } = await import('./headless.js');
    return runHeadless(args, { stdinText, cwd: process.cwd() });
  }
  const ui = await importOptional('../ui/run-ui.js');
  const runInteractive = ui?.runInteractive as ((o: InteractiveOptions) => Promise<number | void>) | undefined;
  if (!runInteractive) {
    process.stderr.write(
      'gemini-mcp: the terminal UI is not part of this build. Use -p "prompt" (or pipe a prompt on stdin) to run headless.\n',
    );
    return 1;
  }
  const code = await runInteractive({ args, cwd: process.cwd(), initialPrompt: args.positional });
  return typeof code === 'number' ? code : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Servers and sockets may hold the loop open; once the command is done the process is done.
    process.stdout.write('', () => process.exit(code));
  },
  (err: unknown) => {
    const code = err instanceof InputError ? 42 : typeof (err as { exitCode?: unknown }).exitCode === 'number' ? (err as { exitCode: number }).exitCode : 1;
    process.stderr.write(`gemini-mcp: ${(err as Error)?.message ?? String(err)}\n`);
    process.stdout.write('', () => process.exit(code));
  },
);
