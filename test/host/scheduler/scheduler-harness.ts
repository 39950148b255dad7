import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { PolicyEngine, type PolicyEngineOptions } from '../../../host/policy/policy-engine.js';
import type { CallExecutor, ElicitationHandler, ToolLookup } from '../../../host/scheduler/executor.js';
import { ToolScheduler } from '../../../host/scheduler/scheduler.js';
import type {
  Confirmer,
  SchedulerEvent,
  ToolCallRequestInfo,
  ToolHooks,
  ToolRef,
} from '../../../host/scheduler/types.js';
import { META } from '../../../protocol/meta.js';
import { startStdioServer, type StdioServer } from '../../helpers/mcp.js';

/**
 * Real servers behind the scheduler through a thin SDK-client executor, so scheduler tests do not
 * depend on the client manager's extras (restarts, timers). The runtime tests use the real manager.
 */
export interface HarnessServer {
  alias: string;
  entry: string;
  args?: string[];
  env?: Record<string, string>;
  builtIn?: boolean;
  trusted?: boolean;
}

export interface Harness {
  scheduler: ToolScheduler;
  policy: PolicyEngine;
  events: SchedulerEvent[];
  servers: Map<string, StdioServer>;
  tools: ToolLookup;
  executor: CallExecutor;
  run(
    calls: { name: string; args: Record<string, unknown>; callId?: string }[],
    signal?: AbortSignal,
  ): ReturnType<ToolScheduler['schedule']>;
  close(): Promise<void>;
}

export async function startHarness(opts: {
  servers: HarnessServer[];
  policy?: Partial<PolicyEngineOptions>;
  confirmer?: Confirmer;
  projectTempDir: string;
  truncateThreshold?: number;
  hooks?: ToolHooks;
}): Promise<Harness> {
  let handler: ElicitationHandler | undefined;
  const servers = new Map<string, StdioServer>();
  const tools = new Map<string, ToolRef>();
  for (const s of opts.servers) {
    const server = await startStdioServer(s.entry, {
      args: s.args,
      env: s.env,
      elicit: (params) => (handler ? handler(s.alias, params, new AbortController().signal) : { action: 'decline' }),
    });
    servers.set(s.alias, server);
    const { tools: list } = await server.client.listTools();
    for (const t of list) tools.set(`${s.alias}__${t.name}`, toSchedulable(s, t));
  }
  const lookup: ToolLookup = { get: (n) => tools.get(n), list: () => [...tools.values()] };
  const executor: CallExecutor = {
    callTool: async (alias, toolName, args, o) =>
      (await servers
        .get(alias)!
        .client.callTool({ name: toolName, arguments: args, ...(o?.meta ? { _meta: o.meta } : {}) }, undefined, {
          signal: o?.signal,
          ...(o?.onProgress ? { onprogress: o.onProgress } : {}),
        })) as CallToolResult,
    setElicitationHandler: (h) => (handler = h),
  };
  const policy = new PolicyEngine({ interactive: true, ...opts.policy });
  const scheduler = new ToolScheduler({
    tools: lookup,
    executor,
    policy,
    confirmer: opts.confirmer,
    projectTempDir: opts.projectTempDir,
    truncateThreshold: opts.truncateThreshold,
    hooks: opts.hooks,
  });
  const events: SchedulerEvent[] = [];
  scheduler.on('event', (e: SchedulerEvent) => events.push(e));
  let n = 0;
  return {
    scheduler,
    policy,
    events,
    servers,
    tools: lookup,
    executor,
    run: (calls, signal = new AbortController().signal) =>
      scheduler.schedule(
        calls.map(
          (c): ToolCallRequestInfo => ({
            callId: c.callId ?? `c${++n}`,
            name: c.name,
            args: c.args,
            isClientInitiated: false,
            promptId: 'p1',
          }),
        ),
        signal,
      ),
    close: async () => {
      await Promise.all([...servers.values()].map((s) => s.close()));
    },
  };
}

function toSchedulable(s: HarnessServer, t: Tool): ToolRef {
  const meta = (t._meta ?? {}) as Record<string, unknown>;
  const trustedHints = !!s.builtIn || !!s.trusted;
  return {
    exposedName: `${s.alias}__${t.name}`,
    serverAlias: s.alias,
    toolName: t.name,
    title: t.title,
    description: t.description ?? '',
    readOnly: trustedHints && t.annotations?.readOnlyHint === true,
    confirmsInCall: meta[META.confirms] === true,
    trusted: !!s.trusted,
    builtIn: !!s.builtIn,
    inputSchema: t.inputSchema as Record<string, unknown>,
    maxResultSizeChars:
      typeof meta[META.maxResultSizeChars] === 'number' ? (meta[META.maxResultSizeChars] as number) : undefined,
  };
}

/** The statuses one call went through, from the events. */
export function statusTrail(events: SchedulerEvent[], callId: string): string[] {
  const trail: string[] = [];
  for (const e of events) {
    if (e.type !== 'tool_call_update' || e.call.request.callId !== callId) continue;
    if (trail[trail.length - 1] !== e.call.status) trail.push(e.call.status);
  }
  return trail;
}
