import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { ExtensionSetting } from '../extensions/manifest.js';
import type { InstallIo } from '../extensions/install.js';
import { loadExtensions } from '../extensions/loader.js';
import { extensionDetails, formatExtensions } from '../extensions/listing.js';
import { safeBlock, safeText } from '../safe-text.js';

/**
 * `gemini-mcp extensions …`, the same sub-commands, flags and files as `gemini extensions …`.
 * Exit 0 on success, 1 when the operation failed, 42 for usage errors.
 */
const USAGE = `Usage: gemini-mcp extensions <command>
  install <path | git URL> [--ref R] [--auto-update] [--consent]   install an extension
  uninstall <name>                                                 remove it
  list                                                             installed extensions
  update <name> | --all                                            re-fetch from the source
  enable <name> [--scope user|workspace]                           enable (default scope: user)
  disable <name> [--scope user|workspace]                          disable
  link <path> [--consent]                                          use a folder in place (changes show at once)
  new <path> [context|custom-commands|exclude-tools|mcp-server|skills]   create a new extension
  validate <path>                                                  check a folder's gemini-extension.json
  config [name] [setting]                                          set an extension's settings again
`;

export interface ExtensionsCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
}

/**
 * Lines of stdin, one per question: a single reader for the whole command, so answers piped together
 * ("y\ntoken\n") each reach their question. Undefined at end of input.
 */
function lineReader(): () => Promise<string | undefined> {
  let rl: ReturnType<typeof createInterface> | undefined;
  const buffered: string[] = [];
  const waiting: ((l: string | undefined) => void)[] = [];
  let closed = false;
  const start = (): void => {
    rl = createInterface({ input: process.stdin, terminal: false });
    rl.on('line', (l) => {
      const w = waiting.shift();
      if (w) w(l);
      else buffered.push(l);
    });
    rl.on('close', () => {
      closed = true;
      for (const w of waiting.splice(0)) w(undefined);
    });
  };
  return () => {
    if (!rl) start();
    if (buffered.length) return Promise.resolve(buffered.shift());
    if (closed) return Promise.resolve(undefined);
    return new Promise((resolve) => waiting.push(resolve));
  };
}

/** A secret typed at a terminal: raw mode, nothing echoed; from a pipe it is read like any line. */
function askSecret(
  question: string,
  out: (s: string) => void,
  next: () => Promise<string | undefined>,
): Promise<string | undefined> {
  const stdin = process.stdin;
  out(question);
  if (!stdin.isTTY) return next();
  return new Promise((resolve) => {
    let value = '';
    stdin.setRawMode(true);
    stdin.resume();
    const done = (v: string | undefined): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      out('\n');
      resolve(v);
    };
    const onData = (buf: Buffer): void => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          done(value);
          return;
        }
        if (ch === '\u0003' || ch === '\u0004') {
          done(undefined);
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

function installIo(opts: ExtensionsCommandOptions, out: (s: string) => void): InstallIo & ConfigureIoExtra {
  const next = lineReader();
  const askLine = (q: string, o: (s: string) => void) => {
    o(q);
    return next();
  };
  return {
    cwd: opts.cwd,
    env: opts.env,
    log: out,
    confirm: async (text) => {
      out(`${text}\n`);
      const a = await askLine('Do you want to continue? [Y/n]: ', out);
      if (a === undefined) return false;
      const t = a.trim().toLowerCase();
      return t === '' || t === 'y' || t === 'yes';
    },
    confirmNo: async (question) => {
      const a = await askLine(`${question} [y/N]: `, out);
      const t = a?.trim().toLowerCase();
      return t === 'y' || t === 'yes';
    },
    askSetting: async (s: ExtensionSetting) => {
      const label = safeBlock(
        `${s.name}${s.description ? `\n${s.description}` : ''}\n${s.envVar}${s.sensitive ? ' (hidden)' : ''}: `,
      );
      const v = s.sensitive && process.stdin.isTTY ? await askSecret(label, out, next) : await askLine(label, out);
      return v?.trim() ? v.trim() : undefined;
    },
  };
}

/** `extensions config` asks yes/no questions whose default is no. */
interface ConfigureIoExtra {
  confirmNo(question: string): Promise<boolean>;
}

export function listExtensionsText(o: { cwd: string; env?: NodeJS.ProcessEnv; only?: string[] }): string {
  const set = loadExtensions({ cwd: o.cwd, env: o.env, only: o.only });
  const details = extensionDetails(set.extensions, { cwd: o.cwd, env: o.env });
  return formatExtensions(set.extensions, true, details) + set.errors.map((e) => `Warning: ${e}\n`).join('');
}

export async function runExtensionsCommand(argv: string[], opts: ExtensionsCommandOptions): Promise<number> {
  const out = opts.stdout ?? ((s: string) => void process.stdout.write(s));
  const err = opts.stderr ?? ((s: string) => void process.stderr.write(s));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        ref: { type: 'string' },
        'auto-update': { type: 'boolean' },
        consent: { type: 'boolean' },
        all: { type: 'boolean' },
        scope: { type: 'string' },
        'pre-release': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    err(safeBlock(`${(e as Error).message}\n${USAGE}`));
    return 42;
  }
  const [sub, arg, extra] = parsed.positionals;
  const v = parsed.values;
  // `--help` is an answer (0), as for `mcp --help`; no command at all is a usage error (42).
  if (v.help || !sub) {
    out(USAGE);
    return v.help ? 0 : 42;
  }
  const usage = (msg: string): number => {
    err(`${msg}\n${USAGE}`);
    return 42;
  };
  try {
    return await runSub(sub, arg, extra, v, opts, out, usage);
  } catch (e) {
    // Names, sources and refs in errors are the user's or a third party's text: shown, never obeyed.
    err(safeBlock(`${(e as Error).message}\n`));
    return 1;
  }
}

type Values = { ref?: string; 'auto-update'?: boolean; consent?: boolean; all?: boolean; scope?: string };

async function runSub(
  sub: string,
  arg: string | undefined,
  extra: string | undefined,
  v: Values,
  opts: ExtensionsCommandOptions,
  out: (s: string) => void,
  usage: (msg: string) => number,
): Promise<number> {
  const io = installIo(opts, out);
  const ops = await import('../extensions/install.js');
  switch (sub) {
    case 'install':
    case 'link': {
      if (!arg) return usage(`Missing the ${sub === 'link' ? 'path' : 'source'} to ${sub}.`);
      const ext = await ops.installExtension(
        { source: arg, ref: v.ref, autoUpdate: v['auto-update'], consent: v.consent, link: sub === 'link' },
        io,
      );
      out(`Extension "${ext.name}" ${sub === 'link' ? 'linked' : 'installed'} successfully and enabled.\n`);
      return 0;
    }
    case 'uninstall':
      if (!arg) return usage('Missing the extension name.');
      out(`Extension "${ops.uninstallExtension(arg, io)}" successfully uninstalled.\n`);
      return 0;
    case 'list':
      out(listExtensionsText({ cwd: opts.cwd, env: opts.env }));
      return 0;
    case 'update': {
      const names = v.all
        ? loadExtensions({ cwd: opts.cwd, env: opts.env }).extensions.map((e) => e.name)
        : arg
          ? [arg]
          : [];
      if (!names.length) return usage(v.all ? 'No extensions installed.' : 'Name an extension or use --all.');
      for (const n of names) {
        const r = await ops.updateExtension(n, io, v.consent);
        out(
          r.from === r.to
            ? `Extension "${r.name}" refreshed from its source (version ${r.to}).\n`
            : `Extension "${r.name}" successfully updated: ${r.from} → ${r.to}.\n`,
        );
      }
      return 0;
    }
    case 'enable':
    case 'disable': {
      if (!arg) return usage('Missing the extension name.');
      const scope = v.scope ?? 'user';
      if (scope !== 'user' && scope !== 'workspace') return usage(`Invalid --scope "${scope}": use user or workspace.`);
      const name = ops.enableExtension(arg, sub === 'enable', scope, io);
      out(`Extension "${name}" successfully ${sub}d for scope "${scope}".\n`);
      return 0;
    }
    case 'config':
    case 'configure':
      return configure(arg, extra, v, io, usage);
    case 'new': {
      if (!arg) return usage('Missing the path of the new extension.');
      const dir = (await import('../extensions/templates.js')).newExtension(arg, extra, opts.cwd);
      out(`Successfully created new extension at ${dir}.\n`);
      return 0;
    }
    case 'validate': {
      if (!arg) return usage('Missing the path to validate.');
      const problems = ops.validateExtension(arg, opts.cwd);
      if (problems.length) {
        for (const p of problems) out(`${p}\n`);
        return 1;
      }
      out(`Extension ${arg} has been successfully validated.\n`);
      return 0;
    }
    default:
      return usage(`Unknown extensions command "${safeText(sub)}".`);
  }
}

async function configure(
  name: string | undefined,
  setting: string | undefined,
  v: Values,
  io: InstallIo & ConfigureIoExtra,
  usage: (msg: string) => number,
): Promise<number> {
  // Settings live in the extension's own .env, which is one per installed extension: the user scope.
  if (v.scope !== undefined && v.scope !== 'user')
    return usage(
      `--scope ${v.scope} is not supported: extension settings are kept in the extension's .env (user scope).`,
    );
  if (name && /[/\\]|\.\./.test(name))
    return usage('Invalid extension name. Names cannot contain path separators or "..".');
  const { configureExtensions, configureSetting } = await import('../extensions/configure.js');
  const cio = { ...io, confirm: io.confirmNo };
  if (name && setting) await configureSetting(name, setting, cio);
  else await configureExtensions(name, cio);
  return 0;
}
