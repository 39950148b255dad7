import { type ParseArgsConfig, parseArgs } from 'node:util';
import { FatalInputError } from './errors.js';
import { safeText } from './safe-text.js';
import type { ApprovalMode } from './scheduler/types.js';
import { APPROVAL_MODE_CHOICES, parseApprovalMode } from './policy/approval-mode.js';
import { parseArgsMessage } from './cli-parse-error.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface CliArgs {
  prompt?: string;
  /** Positional words joined with spaces. */
  positional?: string;
  model?: string;
  approvalMode?: ApprovalMode;
  allowedMcpServerNames?: string[];
  allowedTools?: string[];
  outputFormat: OutputFormat;
  includeDirectories: string[];
  debug: boolean;
  recordResponses?: string;
  fakeResponses?: string;
  fakeResponsesNonStrict: boolean;
  /** `--skip-trust`: trust the folder for this run only. */
  skipTrust: boolean;
  version: boolean;
  help: boolean;
  /** `-r/--resume [latest|N|ID]`; `-r` alone is `latest`. */
  resume?: string;
  listSessions: boolean;
  deleteSession?: string;
  /** `--checkpointing`: snapshot the project before approved edits. */
  checkpointing: boolean;
  /** `--acp` (Gemini CLI's `--experimental-acp` too): serve the Agent Client Protocol on stdio. */
  acp: boolean;
  /** `-s/--sandbox`: shell commands run in the sandbox. */
  sandbox: boolean;
  /** `--sandbox-allow-net a,b`: hosts sandboxed commands may reach. */
  sandboxAllowNet?: string[];
  /** `--policy FILE` (repeatable, or comma-separated): policy files of the user tier. */
  policyFiles?: string[];
  /** `--admin-policy FILE` (repeatable, or comma-separated): policy files of the admin tier. */
  adminPolicyFiles?: string[];
  /** `-e/--extensions a,b` (or `none`): only these extensions for this run. */
  extensions?: string[];
  /** `-l/--list-extensions`: print the installed extensions and exit. */
  listExtensions: boolean;
  /** `-i/--prompt-interactive`: open the chat with this message already sent. */
  promptInteractive?: string;
  /** `-w/--worktree [NAME]`: run in a new git worktree ('' when no name was given). */
  worktree?: string;
  /** `--session-id ID`: the id of the new session (an id in use is refused). */
  sessionId?: string;
}

/**
 * Gemini CLI 0.61 flags we do not have: refused with what to do instead (exit 42), never read as a prompt
 * or silently ignored.
 */
const UNSUPPORTED_FLAGS: Readonly<Record<string, string>> = {
  'session-file':
    '--session-file is not supported: sessions are recorded per project; use -r/--resume [latest|N|ID] (--list-sessions lists them).',
  'screen-reader':
    '--screen-reader is not supported: the chat has no screen reader mode yet; headless -p prints plain text.',
  'raw-output':
    '--raw-output is not supported: model and tool text is always shown with its control characters escaped.',
  'accept-raw-output-risk':
    '--accept-raw-output-risk is not supported: model and tool text is always shown with its control characters escaped.',
};

function refuseUnsupported(values: Record<string, unknown>): void {
  for (const [flag, message] of Object.entries(UNSUPPORTED_FLAGS))
    if (values[flag] !== undefined) throw new FatalInputError(message);
}

/** Comma-separated and repeatable list flags both work: `--x a,b --x c`. */
function list(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  return values
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

function approvalModeOf(raw: string | undefined, yolo: boolean): ApprovalMode | undefined {
  if (raw === undefined) return yolo ? 'yolo' : undefined;
  const mode = parseApprovalMode(raw);
  if (!mode) throw new FatalInputError(`Invalid --approval-mode "${raw}". Use one of: ${APPROVAL_MODE_CHOICES}.`);
  if (yolo && mode !== 'yolo') {
    throw new FatalInputError(
      'Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead.',
    );
  }
  return mode;
}

/** `-r` / `--resume` without a value (last, or followed by another flag) means `latest`; `-w` alone, ''. */
function defaultResumeValue(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    out.push(a);
    const last = i + 1 >= argv.length || argv[i + 1]!.startsWith('-');
    if ((a === '-r' || a === '--resume') && last) out.push('latest');
    // Gemini CLI's -w takes an optional name: alone, a name is made up.
    else if ((a === '-w' || a === '--worktree') && last) out.push('');
  }
  return out;
}

/**
 * Every flag, once: node:util's parseArgs reads `type`, `short`, `multiple` and `default`; `--help` is made
 * from `arg` and `help` in this order. A flag without `help` is accepted but not listed (an alias, or
 * one of Gemini CLI's flags we refuse with a reason).
 */
const FLAGS = {
  prompt: { type: 'string', short: 'p', arg: '<text>', help: 'run one prompt headless (appended to piped stdin)' },
  'prompt-interactive': {
    type: 'string',
    short: 'i',
    arg: '<text>',
    help: 'open the chat with this prompt already sent',
  },
  'session-id': { type: 'string', arg: '<id>', help: 'start a new session with this id (letters, digits, - and _)' },
  model: { type: 'string', short: 'm', arg: '<id>', help: 'model or alias: auto (default), pro, flash, flash-lite' },
  yolo: { type: 'boolean', short: 'y', default: false, help: 'approve every tool call' },
  'approval-mode': { type: 'string', arg: '<mode>', help: 'default | auto_edit | yolo | plan (read-only tools only)' },
  'allowed-mcp-server-names': {
    type: 'string',
    multiple: true,
    arg: '<a,b>',
    help: 'start only these servers and allow their tools',
  },
  'allowed-tools': { type: 'string', multiple: true, arg: '<a,b>', help: 'tools that run without confirmation' },
  policy: {
    type: 'string',
    multiple: true,
    arg: '<file>',
    help: 'load a policy file or folder (.toml [[rule]]s); repeatable',
  },
  'admin-policy': {
    type: 'string',
    multiple: true,
    arg: '<file>',
    help: 'the same, in the admin tier (ignored when system policies exist)',
  },
  'session-file': { type: 'string' },
  'screen-reader': { type: 'boolean' },
  'raw-output': { type: 'boolean' },
  'accept-raw-output-risk': { type: 'boolean' },
  worktree: {
    type: 'string',
    short: 'w',
    arg: '[name]',
    help: 'run in a new git worktree (needs experimental.worktrees)',
  },
  'output-format': { type: 'string', short: 'o', arg: '<fmt>', help: 'text | json | stream-json (headless)' },
  'include-directories': { type: 'string', multiple: true, arg: '<a,b>', help: 'extra workspace directories' },
  debug: { type: 'boolean', short: 'd', default: false, help: 'debug logging on stderr' },
  'record-responses': { type: 'string', arg: '<file>', help: 'record model responses as JSONL' },
  'fake-responses': { type: 'string', arg: '<file>', help: 'replay model responses from JSONL (no network)' },
  'fake-responses-non-strict': { type: 'string' },
  resume: {
    type: 'string',
    short: 'r',
    arg: '[latest|N|ID]',
    help: 'continue a recorded session of this project (default: latest)',
  },
  'list-sessions': { type: 'boolean', default: false, help: "list this project's recorded sessions" },
  'delete-session': { type: 'string', arg: '<N|ID>', help: 'delete a recorded session' },
  checkpointing: { type: 'boolean', default: false, help: 'snapshot project files before approved edits (/restore)' },
  acp: { type: 'boolean', default: false, help: 'serve the Agent Client Protocol on stdio (for editors)' },
  'experimental-acp': { type: 'boolean', default: false },
  sandbox: {
    type: 'boolean',
    short: 's',
    default: false,
    help: 'run shell commands in the sandbox (bubblewrap; also GEMINI_SANDBOX=true)',
  },
  'sandbox-allow-net': {
    type: 'string',
    multiple: true,
    arg: '<a,b>',
    help: 'hosts sandboxed commands may reach (default: no network)',
  },
  extensions: {
    type: 'string',
    short: 'e',
    multiple: true,
    arg: '<a,b|none>',
    help: 'use only these extensions for this run',
  },
  'list-extensions': { type: 'boolean', short: 'l', default: false, help: 'list the installed extensions and exit' },
  'skip-trust': {
    type: 'boolean',
    default: false,
    help: 'trust this folder for this run (workspace servers, .env, modes)',
  },
  version: { type: 'boolean', short: 'v', default: false, help: 'print the version' },
  help: { type: 'boolean', short: 'h', default: false, help: 'print this help' },
} as const satisfies Record<string, NonNullable<ParseArgsConfig['options']>[string] & { arg?: string; help?: string }>;

const OPTIONS = Object.fromEntries(
  Object.entries(FLAGS).map(([name, { type, ...rest }]) => [
    name,
    {
      type,
      ...('short' in rest ? { short: rest.short } : {}),
      ...('multiple' in rest ? { multiple: rest.multiple } : {}),
      ...('default' in rest ? { default: rest.default } : {}),
    },
  ]),
) as { [K in keyof typeof FLAGS]: Omit<(typeof FLAGS)[K], 'arg' | 'help'> };

function optionLines(): string {
  return Object.entries(FLAGS)
    .filter(([, f]) => 'help' in f)
    .map(([name, f]) => {
      const flag = `${'short' in f ? `-${f.short}, ` : '    '}--${name}${'arg' in f ? ` ${f.arg}` : ''}`;
      return `  ${flag.padEnd(35)} ${(f as { help: string }).help}`;
    })
    .join('\n');
}

export const HELP_TEXT = `Usage: gemini-mcp [options] [prompt..]
       gemini-mcp mcp <add|remove|list|...>    manage MCP servers
       gemini-mcp tools <list|call|...>        inspect and call tools
       gemini-mcp trust [--parent|--never|--reset] [dir]   trust a folder (or not)
       gemini-mcp skills <list|enable|disable>  manage agent skills
       gemini-mcp hooks migrate --from-claude   Claude Code hooks → .gemini/settings.json
       gemini-mcp extensions <install|uninstall|list|update|enable|disable|link|new|validate>

Options:
${optionLines()}
`;

export function parseCliArgs(argv: string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: defaultResumeValue(argv),
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
  } catch (err) {
    throw new FatalInputError(`${parseArgsMessage(err, 'gemini-mcp')}\nRun "gemini-mcp --help" for usage.`);
  }
  const v = parsed.values;
  refuseUnsupported(v);
  const format = v['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'stream-json') {
    throw new FatalInputError(`Invalid --output-format "${format}". Use one of: text, json, stream-json.`);
  }
  const positional = parsed.positionals.length ? parsed.positionals.join(' ') : undefined;
  if (v.prompt !== undefined && v['prompt-interactive'] !== undefined)
    throw new FatalInputError('Cannot use both --prompt (-p) and --prompt-interactive (-i) together');
  const sessionId = v['session-id']?.trim();
  if (v['session-id'] !== undefined) {
    if (!sessionId) throw new FatalInputError('The --session-id option cannot be empty.');
    if (!/^[a-zA-Z0-9_-]+$/.test(sessionId))
      throw new FatalInputError(
        `Invalid session ID "${safeText(sessionId)}": Only alphanumeric characters, dashes, and underscores are allowed.`,
      );
    if (v.resume !== undefined)
      throw new FatalInputError('The flags --resume and --session-id are mutually exclusive. Please provide only one.');
  }
  return {
    prompt: v.prompt,
    positional,
    promptInteractive: v['prompt-interactive'],
    sessionId,
    model: v.model,
    approvalMode: approvalModeOf(v['approval-mode'], v.yolo ?? false),
    allowedMcpServerNames: list(v['allowed-mcp-server-names']),
    allowedTools: list(v['allowed-tools']),
    policyFiles: list(v.policy),
    adminPolicyFiles: list(v['admin-policy']),
    outputFormat: format,
    includeDirectories: list(v['include-directories']) ?? [],
    debug: v.debug ?? false,
    recordResponses: v['record-responses'],
    fakeResponses: v['fake-responses'] ?? v['fake-responses-non-strict'],
    fakeResponsesNonStrict: v['fake-responses-non-strict'] !== undefined && v['fake-responses'] === undefined,
    skipTrust: v['skip-trust'] ?? false,
    version: v.version ?? false,
    help: v.help ?? false,
    resume: v.resume,
    listSessions: v['list-sessions'] ?? false,
    deleteSession: v['delete-session'],
    checkpointing: v.checkpointing ?? false,
    acp: (v.acp ?? false) || (v['experimental-acp'] ?? false),
    sandbox: v.sandbox ?? false,
    sandboxAllowNet: list(v['sandbox-allow-net']),
    extensions: list(v.extensions),
    listExtensions: v['list-extensions'] ?? false,
    worktree: v.worktree,
  };
}

/**
 * The flags that shape a session, as every entry point (headless, chat, `--acp`) hands them to
 * createSession: one list, so a flag added here reaches them all (an `--acp` run once lost `-s` and
 * `--policy` this way).
 */
export function sessionFlags(args: CliArgs) {
  return {
    approvalMode: args.approvalMode,
    allowedMcpServerNames: args.allowedMcpServerNames,
    allowedTools: args.allowedTools,
    policyFiles: args.policyFiles,
    adminPolicyFiles: args.adminPolicyFiles,
    includeDirectories: args.includeDirectories,
    model: args.model,
    fakeResponses: args.fakeResponses,
    fakeResponsesNonStrict: args.fakeResponsesNonStrict,
    recordResponses: args.recordResponses,
    resume: args.resume,
    sessionId: args.sessionId,
    checkpointing: args.checkpointing || undefined,
    debug: args.debug,
    skipTrust: args.skipTrust,
    sandbox: args.sandbox,
    sandboxAllowNet: args.sandboxAllowNet,
    extensions: args.extensions,
  };
}
