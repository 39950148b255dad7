#!/usr/bin/env node
// The `gemini-mcp` bin. Kept tiny: every command imports its heavy modules lazily so startup stays fast.
// First: zod's settings (protocol/zod-config.ts) must be in place before any schema is built.
import '../protocol/zod-config.js';
import { fstatSync, statSync } from 'node:fs';
import { asFatal, EXIT, FatalConfigError, FatalInputError } from './errors.js';
import { useProxyFromEnv } from '../protocol/proxy-env.js';
import { HELP_TEXT, parseCliArgs, type CliArgs } from './cli-args.js';

function isHeadless(args: CliArgs): boolean {
  if (args.prompt !== undefined) return true;
  if (!process.stdin.isTTY || !process.stdout.isTTY) return true;
  const env = process.env;
  return env.CI === 'true' || env.GITHUB_ACTIONS === 'true';
}

/**
 * Whether stdin is /dev/null (`< /dev/null`, cron, systemd units, a parent's `stdio: 'ignore'`): then it
 * is empty, and there is no need to open process.stdin and read it to its end (~4 ms of a start).
 */
function stdinIsNullDevice(): boolean {
  try {
    const st = fstatSync(0);
    return st.isCharacterDevice() && st.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/** Reads piped stdin. With `-p` given, an idle pipe that never sends anything must not block the run. */
async function readStdin(idleMs: number | undefined): Promise<string> {
  if (stdinIsNullDevice() || process.stdin.isTTY) return '';
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

/**
 * A reader that goes away (`gemini-mcp -p … | head -c 5`) ends the run quietly, as a command killed by
 * SIGPIPE would (exit 141), instead of an uncaught EPIPE stack trace; whatever was being written has nowhere
 * to go. The same for stderr, which may be piped too. Every output format and subcommand writes through
 * these two streams, so this one place covers them all.
 */
const isClosedPipe = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException | null | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
};

function endQuietlyOnClosedPipe(): void {
  const onError = (err: NodeJS.ErrnoException) => {
    if (isClosedPipe(err)) process.exit(EXIT.closedPipe);
    throw err;
  };
  process.stdout.on('error', onError);
  process.stderr.on('error', onError);
}

async function main(argv: string[]): Promise<number> {
  endQuietlyOnClosedPipe();
  // Before anything can send a request: the model, OAuth and remote MCP servers all honour the proxy.
  try {
    useProxyFromEnv();
  } catch (err) {
    throw new FatalConfigError((err as Error).message);
  }
  const [first, ...rest] = argv;
  if (first === 'mcp') return (await import('./cli/mcp-subcommand.js')).runMcpCommand(rest);
  if (first === 'tools') return (await import('./cli/tools-subcommand.js')).runToolsCommand(rest);
  if (first === 'trust') return (await import('./cli/trust-subcommand.js')).runTrustCommand(rest);
  if (first === 'hooks' || first === 'hook')
    return (await import('./cli/hooks-subcommand.js')).runHooksCommand(rest, { cwd: process.cwd() });
  if (first === 'skills' || first === 'skill')
    return (await import('./cli/skills-subcommand.js')).runSkillsCommand(rest, { cwd: process.cwd() });
  if (first === 'extensions' || first === 'extension')
    return (await import('./cli/extensions-subcommand.js')).runExtensionsCommand(rest, { cwd: process.cwd() });

  const args = parseCliArgs(argv);
  if (args.help) {
    process.stdout.write(HELP_TEXT);
    return 0;
  }
  if (args.version) {
    const { VERSION } = await import('../protocol/version.js');
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (args.listExtensions) {
    const { listExtensionsText } = await import('./cli/extensions-subcommand.js');
    process.stdout.write(listExtensionsText({ cwd: process.cwd(), only: args.extensions }));
    return 0;
  }
  if (args.listSessions || args.deleteSession !== undefined) {
    return (await import('./cli/sessions-subcommand.js')).runSessionsCommand(args, { cwd: process.cwd() });
  }
  if (args.worktree === undefined) return runSession(args);
  const { enterWorktree, leaveWorktree } = await import('./cli/worktree.js');
  const worktree = enterWorktree(args.worktree);
  try {
    return await runSession(args);
  } finally {
    process.stderr.write(`${leaveWorktree(worktree)}\n`);
  }
}

/** The session itself: editors (ACP), a headless run or the chat, in the current directory. */
async function runSession(args: CliArgs): Promise<number> {
  if (args.acp) return (await import('./acp/run-acp.js')).runAcp(args);
  if (isHeadless(args)) {
    // `-i` opens the chat with a first message; without a terminal there is no chat to open.
    if (args.promptInteractive !== undefined)
      throw new FatalInputError(
        '--prompt-interactive (-i) needs a terminal (stdin and stdout); use -p for a headless run.',
      );
    const stdinText = await readStdin(args.prompt !== undefined || args.positional !== undefined ? 500 : undefined);
    const { runHeadless } = await import('./cli/headless.js');
    return runHeadless(args, { stdinText, cwd: process.cwd() });
  }
  const { runInteractive } = await import('./ui/run-ui.js');
  return runInteractive({ args, cwd: process.cwd() });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Servers and sockets may hold the loop open; once the command is done the process is done.
    process.stdout.write('', (err) => process.exit(isClosedPipe(err) ? EXIT.closedPipe : code));
  },
  (err: unknown) => {
    const fatal = asFatal(err);
    const code = fatal.exitCode;
    if (isClosedPipe(err)) process.exit(EXIT.closedPipe);
    process.stderr.write(`gemini-mcp: ${fatal.message}\n`);
    process.stdout.write('', (e) => process.exit(isClosedPipe(e) ? EXIT.closedPipe : code));
  },
);
