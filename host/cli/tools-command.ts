import { parseArgs } from 'node:util';
import { SettingsError } from '../config/errors.js';
import { displayOf, outputOf, resolvePassiveTool } from '../passive-call.js';
import { createHostRuntime, type HostRuntime } from '../runtime.js';
import type { ApprovalMode } from '../scheduler/types.js';
import { createHostLogger } from '../log.js';

export interface ToolsCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export const EXIT_OK = 0;
export const EXIT_TOOL_ERROR = 1;
export const EXIT_INPUT_ERROR = 42;
export const EXIT_CONFIG_ERROR = 52;

const USAGE = `Usage:
  gemini-mcp tools list [--json]
  gemini-mcp tools call <server__tool> '<json arguments>' [--yolo | --approval-mode default|auto_edit|yolo]
        [--allowed-tools a,b] [--allowed-mcp-server-names a,b] [--include-directories a,b] [--json]
  --skip-trust trusts this folder for this run (its workspace servers and .env apply)
`;

class UsageError extends Error {}

const MODES: Record<string, ApprovalMode> = { default: 'default', auto_edit: 'autoEdit', autoEdit: 'autoEdit', yolo: 'yolo' };
const list = (v: string[] | undefined) => v?.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);

/**
 * `gemini-mcp tools list|call`: the tool side without a model. Runs headless: every ask is declined
 * unless `--yolo`, an approval mode or an allow rule covers it. Exit 0 ok, 1 tool error or denial,
 * 42 bad invocation, 52 configuration error.
 */
export async function runToolsCommand(argv: string[], opts: ToolsCommandOptions = { cwd: process.cwd() }): Promise<number> {
  const out = opts.stdout ?? process.stdout;
  const err = opts.stderr ?? process.stderr;
  let runtime: HostRuntime | undefined;
  try {
    const { values, positionals } = parseArgs({
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
    const [sub, name, json, ...extra] = positionals;
    if (values.help || !sub) {
      out.write(USAGE);
      return values.help ? EXIT_OK : EXIT_INPUT_ERROR;
    }
    if (sub !== 'list' && sub !== 'call') throw new UsageError(`Unknown tools subcommand "${sub}".`);
    if (sub === 'call' && !name) throw new UsageError('tools call needs a tool name.');
    if (extra.length > 0 || (sub === 'list' && name)) throw new UsageError(`Unexpected argument "${extra[0] ?? name}".`);
    const rawMode = values['approval-mode'];
    if (rawMode !== undefined && !MODES[rawMode]) throw new UsageError(`Invalid --approval-mode "${rawMode}". Use default, auto_edit or yolo.`);
    if (rawMode !== undefined && values.yolo) throw new UsageError('Use either --yolo or --approval-mode.');
    // Checked before any server starts: a typo should not cost a start-up.
    const callArgs = sub === 'call' ? parseJsonObject(json ?? '{}') : {};
    runtime = await createHostRuntime({
      cwd: opts.cwd,
      env: opts.env,
      interactive: false,
      approvalMode: values.yolo ? 'yolo' : rawMode ? MODES[rawMode] : 'default',
      allowedTools: list(values['allowed-tools']),
      allowedMcpServerNames: list(values['allowed-mcp-server-names']),
      includeDirectories: list(values['include-directories']),
      skipTrust: values['skip-trust'] === true,
      log: createHostLogger({ debug: values.debug, write: (l) => void err.write(l) }),
    });
    for (const notice of runtime.notices) err.write(`${notice}\n`);
    await runtime.manager.whenSettled();
    if (sub === 'list') return listTools(runtime, values.json === true, out, err);
    return await callTool(runtime, name, callArgs, values.json === true, out, err);
  } catch (e) {
    if (e instanceof SettingsError) {
      err.write(`Configuration error: ${e.message}\n`);
      return EXIT_CONFIG_ERROR;
    }
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err.write(`${(e as Error).message}\n${USAGE}`);
      return EXIT_INPUT_ERROR;
    }
    if (/YOLO mode is disabled/.test((e as Error).message)) {
      err.write(`Configuration error: ${(e as Error).message}\n`);
      return EXIT_CONFIG_ERROR;
    }
    err.write(`Error: ${(e as Error).message}\n`);
    return EXIT_TOOL_ERROR;
  } finally {
    await runtime?.close();
  }
}

function listTools(rt: HostRuntime, json: boolean, out: NodeJS.WritableStream, err: NodeJS.WritableStream): number {
  const tools = rt.registry.list();
  if (json) {
    const servers = rt.manager.states().map((s) => ({ alias: s.alias, status: s.status, error: s.error }));
    out.write(`${JSON.stringify({ servers, tools: tools.map((t) => ({
      name: t.exposedName, server: t.serverAlias, tool: t.toolName, description: t.description,
      readOnly: t.readOnly, confirmsInCall: t.confirmsInCall, trusted: t.trusted, builtIn: t.builtIn,
    })) }, null, 2)}\n`);
  } else {
    for (const s of rt.manager.states()) {
      const mine = tools.filter((t) => t.serverAlias === s.alias);
      out.write(`${s.alias} (${s.status}, ${mine.length} tool${mine.length === 1 ? '' : 's'})\n`);
      for (const t of mine) out.write(`  ${t.exposedName}  ${firstLine(t.description)}\n`);
    }
  }
  for (const s of rt.manager.states()) {
    if (s.status === 'failed' || s.status === 'disconnected') err.write(`${s.alias}: ${s.status}${s.error ? `: ${s.error}` : ''}\n`);
  }
  for (const w of rt.registry.warnings()) err.write(`warning: ${w}\n`);
  return EXIT_OK;
}

function parseJsonObject(json: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch (e) {
    throw new UsageError(`Arguments are not valid JSON: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`Arguments must be a JSON object, got: ${json}`);
  return v as Record<string, unknown>;
}

async function callTool(rt: HostRuntime, name: string, args: Record<string, unknown>, asJson: boolean,
  out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const tool = resolvePassiveTool(name, rt.registry);
  if (!tool.ok) {
    const down = rt.manager.states().filter((s) => s.status !== 'connected' && name.startsWith(`${s.alias}__`));
    err.write(`${tool.error}${down.length ? ` (server ${down[0].alias} is ${down[0].status}${down[0].error ? `: ${down[0].error}` : ''})` : ''}\n`);
    return EXIT_TOOL_ERROR;
  }
  const ac = new AbortController();
  const onSigint = () => ac.abort('SIGINT');
  process.once('SIGINT', onSigint);
  try {
    const [call] = await rt.scheduler.schedule(
      [{ callId: `cli-${Date.now().toString(36)}`, name: tool.value.exposedName, args, isClientInitiated: true, promptId: 'cli' }],
      ac.signal,
    );
    if (asJson) {
      out.write(`${JSON.stringify({ status: call.status, output: outputOf(call), display: call.response?.resultDisplay,
        outputFile: call.response?.outputFile, errorType: call.response?.errorType }, null, 2)}\n`);
    } else if (call.status === 'success') {
      const text = outputOf(call) ?? displayOf(call);
      out.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    } else {
      err.write(`${call.status === 'cancelled' ? 'Cancelled' : 'Error'}: ${displayOf(call)}\n`);
    }
    return call.status === 'success' ? EXIT_OK : EXIT_TOOL_ERROR;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

const firstLine = (s: string) => (s.split('\n')[0] ?? '').slice(0, 100);
