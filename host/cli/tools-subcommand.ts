import { parseArgs } from 'node:util';
import { asFatal, EXIT, FatalInputError } from '../errors.js';
import { createHostLogger } from '../log.js';
import { displayOf, outputOf, resolvePassiveTool } from '../passive-call.js';
import { DENIED_BY_POLICY } from '../policy/policy-engine.js';
import { createHostRuntime, type HostRuntime } from '../core/runtime.js';
import { APPROVAL_MODE_CHOICES, parseApprovalMode } from '../policy/approval-mode.js';
import { isParseArgsError, parseArgsMessage } from '../cli-parse-error.js';
import { describeTool, listTools } from './tools-list.js';
import { safeBlock } from '../safe-text.js';

export interface ToolsCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

const USAGE = `Usage:
  gemini-mcp tools list [--json]
  gemini-mcp tools describe <server__tool> [--json]
  gemini-mcp tools call <server__tool> '<json arguments>' [--yolo | --approval-mode default|auto_edit|yolo|plan]
        [--allowed-tools a,b] [--allowed-mcp-server-names a,b] [--include-directories a,b] [--json]
  --skip-trust trusts this folder for this run (its workspace servers and .env apply)
`;

const list = (v: string[] | undefined) =>
  v
    ?.flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv[0] === 'tools' ? argv.slice(1) : argv,
      allowPositionals: true,
      strict: true,
      options: {
        yolo: { type: 'boolean', short: 'y' },
        'approval-mode': { type: 'string' },
        'allowed-tools': { type: 'string', multiple: true },
        'allowed-mcp-server-names': { type: 'string', multiple: true },
        'include-directories': { type: 'string', multiple: true },
        json: { type: 'boolean' },
        'skip-trust': { type: 'boolean' },
        debug: { type: 'boolean', short: 'd' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw isParseArgsError(e) ? new FatalInputError(parseArgsMessage(e, 'gemini-mcp tools')) : e;
  }
}

/** Usage mistakes are found before any server starts: a typo should not cost a start-up. */
function checkUsage(
  sub: string,
  name: string | undefined,
  extra: string[],
  values: ReturnType<typeof parse>['values'],
): void {
  if (sub !== 'list' && sub !== 'call' && sub !== 'describe')
    throw new FatalInputError(`Unknown tools subcommand "${sub}".`);
  if (sub !== 'list' && !name) throw new FatalInputError(`tools ${sub} needs a tool name.`);
  const unexpected = sub === 'call' ? extra[0] : sub === 'describe' ? extra[0] : (name ?? extra[0]);
  if (unexpected !== undefined) throw new FatalInputError(`Unexpected argument "${unexpected}".`);
  const rawMode = values['approval-mode'];
  if (rawMode !== undefined && !parseApprovalMode(rawMode))
    throw new FatalInputError(`Invalid --approval-mode "${rawMode}". Use one of: ${APPROVAL_MODE_CHOICES}.`);
  if (rawMode !== undefined && values.yolo) throw new FatalInputError('Use either --yolo or --approval-mode.');
}

/**
 * `gemini-mcp tools list|describe|call`: the tool side without a model. Runs headless: every ask is
 * declined unless `--yolo`, an approval mode or an allow rule covers it. Exit codes from the one table:
 * 0 ok, 1 tool error or denial, 42 bad invocation, 52 configuration error.
 */
export async function runToolsCommand(
  argv: string[],
  opts: ToolsCommandOptions = { cwd: process.cwd() },
): Promise<number> {
  const out = opts.stdout ?? process.stdout;
  const err = opts.stderr ?? process.stderr;
  let runtime: HostRuntime | undefined;
  try {
    const { values, positionals } = parse(argv);
    const [sub, name, ...rest] = positionals;
    if (values.help || !sub) {
      out.write(USAGE);
      return values.help ? EXIT.ok : EXIT.input;
    }
    const extra = sub === 'call' ? rest.slice(1) : rest;
    checkUsage(sub, name, extra, values);
    const callArgs = sub === 'call' ? parseJsonObject(rest[0] ?? '{}') : {};
    const rawMode = values['approval-mode'];
    runtime = await createHostRuntime({
      cwd: opts.cwd,
      env: opts.env,
      interactive: false,
      approvalMode: values.yolo ? 'yolo' : (parseApprovalMode(rawMode) ?? 'default'),
      allowedTools: list(values['allowed-tools']),
      allowedMcpServerNames: list(values['allowed-mcp-server-names']),
      includeDirectories: list(values['include-directories']),
      skipTrust: values['skip-trust'] === true,
      log: createHostLogger({ debug: values.debug, write: (l) => void err.write(l) }),
      // What servers asked and the host declined (elicitation with no terminal, sampling) is said on
      // stderr, as `-p` does.
      notify: (m) => void err.write(`${safeBlock(m)}\n`),
    });
    if (sub === 'call') (await import('../core/session.js')).attachSamplingModel(runtime);
    for (const notice of runtime.notices) err.write(`${safeBlock(notice)}\n`);
    // `list` and `describe` show live state (every server starts); `call` starts only the server it needs.
    if (sub === 'call') await runtime.manager.whenSettled();
    else await runtime.manager.connectAll();
    const json = values.json === true;
    if (sub === 'list') return listTools(runtime, json, out, err);
    if (sub === 'describe') return describeTool(runtime, name!, json, out, err);
    return await callTool(runtime, name!, callArgs, json, out, err);
  } catch (e) {
    const fatal = asFatal(e);
    if (fatal instanceof FatalInputError) err.write(`${fatal.message}\n${USAGE}`);
    else if (fatal.exitCode === EXIT.config) err.write(`Configuration error: ${fatal.message}\n`);
    else err.write(`Error: ${fatal.message}\n`);
    return fatal.exitCode;
  } finally {
    await runtime?.close();
  }
}

function parseJsonObject(json: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch (e) {
    throw new FatalInputError(`Arguments are not valid JSON: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new FatalInputError(`Arguments must be a JSON object, got: ${json}`);
  return v as Record<string, unknown>;
}

/** What to do about a call refused because it needs a confirmation nobody can give here. */
function refusedHint(name: string): string {
  return `It needs confirmation, which a command line cannot give: add --yolo (approve every call) or --allowed-tools ${name} (allow this tool).`;
}

async function callTool(
  rt: HostRuntime,
  name: string,
  args: Record<string, unknown>,
  asJson: boolean,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const tool = resolvePassiveTool(name, rt.registry);
  if (!tool.ok) {
    const down = rt.manager.states().filter((s) => s.status !== 'connected' && name.startsWith(`${s.alias}__`));
    const why = down.length
      ? ` (server ${down[0].alias} is ${down[0].status}${down[0].error ? `: ${down[0].error}` : ''})`
      : '';
    err.write(`${safeBlock(`${tool.error}${why}`)}\n`);
    return EXIT.error;
  }
  const exposed = tool.value.exposedName;
  const ac = new AbortController();
  const onSigint = () => ac.abort('SIGINT');
  process.once('SIGINT', onSigint);
  try {
    const [call] = await rt.scheduler.schedule(
      [{ callId: `cli-${Date.now().toString(36)}`, name: exposed, args, isClientInitiated: true, promptId: 'cli' }],
      ac.signal,
    );
    // Denied for want of a confirmation (not excluded by settings): say how to let it run.
    const refused = call.response?.errorType === 'policy_denied' && call.response.error !== DENIED_BY_POLICY;
    if (asJson) {
      const r = call.response;
      const body = {
        status: call.status,
        output: outputOf(call),
        display: r?.resultDisplay,
        outputFile: r?.outputFile,
        errorType: r?.errorType,
      };
      out.write(`${JSON.stringify(refused ? { ...body, hint: refusedHint(exposed) } : body, null, 2)}\n`);
    } else if (call.status === 'success') {
      const raw = outputOf(call) ?? displayOf(call);
      // The tool's output is the command's result: raw into a pipe, made safe on a terminal.
      const text = (out as { isTTY?: boolean }).isTTY ? safeBlock(raw) : raw;
      out.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    } else {
      err.write(`${call.status === 'cancelled' ? 'Cancelled' : 'Error'}: ${safeBlock(displayOf(call))}\n`);
      if (refused) err.write(`${refusedHint(exposed)}\n`);
    }
    if (call.status === 'cancelled' && ac.signal.aborted) return EXIT.cancelled;
    return call.status === 'success' ? EXIT.ok : EXIT.error;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
