import { EventEmitter } from 'node:events';
import type { FunctionDeclaration } from '@google/genai';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Settings } from '../config/settings-schema.js';
import type { McpClientManager, ServerState } from '../mcp/client-manager.js';
import { parseToolPattern } from '../config/tool-pattern.js';
import { exposedName, nameCoversTool, patternNamesTool } from './naming.js';
import { hostOnly } from './builtin-catalogue.js';
import { type HostCallContext, hostToolEntry, type RegisteredTool, serverToolEntry } from './registered-tool.js';
import { isResourceTool, resourceToolEntries } from './resource-tools.js';
import {
  declarationSize,
  DECLARATION_CHAR_BUDGET,
  fitsBudget,
  HOST_TOOLS_ALIAS,
  SEARCH_TOOLS_DESCRIPTION,
  SEARCH_TOOLS_NAME,
  SEARCH_TOOLS_SCHEMA,
  searchResult,
  searchTools,
  selectTools,
} from './tool-search.js';

export { exposedName } from './naming.js';

export type { HostCallContext, RegisteredTool };

/** A host tool's handler; `ctx` carries the call's id, signal, progress callback and whether policy allowed it. */
export type HostToolRun = (args: Record<string, unknown>, ctx: HostCallContext) => Promise<CallToolResult>;

/** Function declarations per request the Gemini API accepts (google-gemini/gemini-cli#19083). */
export const DECLARATION_BUDGET = 512;

/**
 * Every tool the model may call, under its exposed `<alias>__<tool>` name, rebuilt whenever a server's
 * tools or status change. Dispatch goes through the map, never by parsing names.
 */
export class ToolRegistry extends EventEmitter {
  private byName = new Map<string, RegisteredTool>();
  private warningList: string[] = [];
  private declared?: FunctionDeclaration[];
  /**
   * Each server tool's registration, kept while the tool object and what its server's configuration
   * says of it stay the same: a registry is rebuilt at every status and list change, and converting
   * 700 schemas (100 servers) again each time cost start-up tens of milliseconds.
   */
  private readonly registered = new WeakMap<Tool, { key: string; reg: RegisteredTool; problem?: string }>();
  private readonly onChange = () => this.markStale();
  /**
   * A change not yet applied: every read applies it first, and a microtask does if nobody reads. A burst
   * of changes in one turn of the event loop (the host tools a session adds one by one, servers' status
   * events) then costs one rebuild rather than one each: each walks every tool (665 with 100 servers).
   */
  private stale = false;
  /** Tools found through search_tools or called: declared in every later request. */
  private readonly active = new Set<string>();
  /** The tools noteUsed has seen, by server alias. */
  private readonly noted = new Map<string, Set<string>>();
  private readonly budget: number;
  /** Host tools beyond search and resources (activate_skill): always declared, run by their handler. */
  private readonly extraHostTools = new Map<string, { entry: RegisteredTool; run: HostToolRun }>();

  constructor(
    private readonly manager: McpClientManager,
    private settings: Settings,
    opts: { declarationBudget?: number } = {},
  ) {
    super();
    this.budget = opts.declarationBudget ?? DECLARATION_CHAR_BUDGET;
    manager.on('tools_changed', this.onChange);
    manager.on('status', this.onChange);
    this.rebuild();
  }

  /**
   * The tool of an exposed name; also found under the names a recording or a person's file uses for it
   * (Gemini CLI's `read_file` / `grep_search` for a built-in, `mcp_<server>_<tool>` for any server's),
   * though the model is only ever offered the exposed names.
   */
  get(name: string): RegisteredTool | undefined {
    this.fresh();
    return this.byName.get(name) ?? this.byForeignName(name);
  }

  /** The names policy rules and settings use for one tool (see nameCoversTool); a wildcard names no single tool. */
  private byForeignName(name: string): RegisteredTool | undefined {
    if (name.endsWith('*')) return undefined;
    for (const t of this.byName.values()) if (nameCoversTool(name, t)) return t;
    return undefined;
  }

  list(): RegisteredTool[] {
    this.fresh();
    return [...this.byName.values()];
  }

  /**
   * What the model sees: one declaration per registered tool, in configuration then listing order;
   * `include` narrows it (headless runs leave out tools policy always denies). Above the budget, the
   * most relevant tools (to `hint`, the user's message) that fit, plus search_tools for the rest.
   */
  declarations(include?: (tool: RegisteredTool) => boolean, hint = ''): FunctionDeclaration[] {
    this.fresh();
    const tools = this.modelPool();
    const offered = include ? tools.filter(include) : tools;
    const host: FunctionDeclaration[] = [];
    for (const t of this.byName.values())
      if (isResourceTool(t.exposedName) && t.serverAlias === HOST_TOOLS_ALIAS) host.push(t.declaration);
    for (const { entry } of this.extraHostTools.values()) if (!include || include(entry)) host.push(entry.declaration);
    // The host's own tools (write_todos' description alone is ~5,000 characters) come out of the same budget.
    const room = Math.max(0, this.budget - host.reduce((a, d) => a + declarationSize(d), 0));
    const { declared, deferred } = selectTools(offered, this.active, hint, room);
    const out = [...declared.map((t) => t.declaration), ...host];
    const search = this.byName.get(SEARCH_TOOLS_NAME);
    if (deferred > 0 && search) out.push(search.declaration);
    return out;
  }

  /** Registers a host tool under its bare name (activate_skill); it is declared in every request. */
  addHostTool(entry: RegisteredTool, run: HostToolRun): void {
    this.extraHostTools.set(entry.exposedName, { entry, run });
    this.markStale();
  }

  /**
   * A call reached this tool: it stays declared from now on. Every call reports its tool; its name is
   * worked out once per tool (two sanitising passes a call were a visible share of a trivial call).
   */
  noteUsed(alias: string, toolName: string): void {
    let tools = this.noted.get(alias);
    if (!tools) this.noted.set(alias, (tools = new Set()));
    if (tools.has(toolName)) return;
    tools.add(toolName);
    this.active.add(exposedName(alias, toolName));
  }

  /** Runs a host-provided tool (search_tools); the tools it finds stay declared from now on. */
  callHostTool(
    toolName: string,
    args: Record<string, unknown>,
    ctx: HostCallContext = { preapproved: false },
  ): CallToolResult | Promise<CallToolResult> {
    const extra = this.extraHostTools.get(toolName);
    if (extra) return extra.run(args, ctx);
    if (toolName !== SEARCH_TOOLS_NAME)
      return { isError: true, content: [{ type: 'text', text: `Unknown host tool '${toolName}'.` }] };
    const found = searchTools(this.modelPool(), args);
    for (const t of found) this.active.add(t.exposedName);
    return searchResult(found, String(args.query ?? ''));
  }

  /**
   * The servers' tools the model may be offered or find with search_tools: not the host's own (declared
   * apart), and not a tool only the host calls for the user (write_to_shell).
   */
  private modelPool(): RegisteredTool[] {
    return this.list().filter((t) => t.serverAlias !== HOST_TOOLS_ALIAS && !hostOnly(t));
  }

  warnings(): string[] {
    this.fresh();
    return [...this.warningList];
  }

  /** New settings (e.g. after `/mcp refresh`); rebuilds at once. */
  updateSettings(settings: Settings): void {
    this.settings = settings;
    this.rebuild();
  }

  dispose(): void {
    this.manager.off('tools_changed', this.onChange);
    this.manager.off('status', this.onChange);
  }

  /** Servers turned off for this session (`/mcp disable NAME`): their tools leave the registry. */
  private readonly disabled = new Set<string>();

  /** `/mcp disable|enable NAME`: the server's tools leave, or come back, at once; settings are untouched. */
  setServerEnabled(alias: string, enabled: boolean): void {
    if (enabled) this.disabled.delete(alias);
    else this.disabled.add(alias);
    this.rebuild();
  }

  isServerEnabled(alias: string): boolean {
    return !this.disabled.has(alias);
  }

  private markStale(): void {
    if (this.stale) return;
    this.stale = true;
    queueMicrotask(() => this.fresh());
  }

  private fresh(): void {
    if (this.stale) this.rebuild();
  }

  rebuild(): void {
    this.stale = false;
    const map = new Map<string, RegisteredTool>();
    const warnings: string[] = [];
    const core = this.settings.tools?.core;
    const exclude = this.settings.tools?.exclude ?? [];
    for (const state of this.manager.states()) {
      if (this.disabled.has(state.alias)) continue;
      const key = registrationKey(state);
      for (const tool of state.tools) {
        const { reg, problem } = this.registration(state, tool, key);
        if (!passesCore(core, reg) || excluded(exclude, reg)) continue;
        if (problem) {
          warnings.push(`Tool '${tool.name}' of MCP server '${state.alias}' is left out: ${problem}.`);
          continue;
        }
        const first = map.get(reg.exposedName);
        if (first) {
          warnings.push(
            `Tool name collision: '${reg.exposedName}' from MCP server '${state.alias}' (tool '${tool.name}') is already used by MCP server '${first.serverAlias}' (tool '${first.toolName}'); the first one wins.`,
          );
          continue;
        }
        map.set(reg.exposedName, reg);
      }
    }
    // While any server offers resources the model can list and read them (host tools, not a server's).
    if (this.manager.states().some((s) => s.status === 'connected' && s.resources.length > 0)) {
      for (const t of resourceToolEntries()) if (!map.has(t.exposedName)) map.set(t.exposedName, t);
    }
    // The host's own tools (activate_skill, update_topic) are Gemini CLI core tools: tools.core and
    // tools.exclude hold for them as for any.
    for (const { entry } of this.extraHostTools.values())
      if (!map.has(entry.exposedName) && passesCore(core, entry) && !excluded(exclude, entry))
        map.set(entry.exposedName, entry);
    // Above the budget the model gets search_tools to reach the tools a request leaves out.
    if (!map.has(SEARCH_TOOLS_NAME) && !fitsBudget(map.values(), this.budget))
      map.set(SEARCH_TOOLS_NAME, searchToolsEntry());
    if (map.size > DECLARATION_BUDGET) {
      warnings.push(
        `${map.size} tools are declared; the Gemini API accepts at most ${DECLARATION_BUDGET} per request. Use includeTools/excludeTools or tools.exclude to trim them.`,
      );
    }
    this.byName = map;
    this.warningList = warnings;
    const declared = [...map.values()].map((t) => t.declaration);
    const before = this.declared;
    this.declared = declared;
    if (!sameDeclarations(before, declared)) this.emit('changed');
  }

  private registration(
    state: ServerState,
    tool: Tool,
    key: string,
  ): { key: string; reg: RegisteredTool; problem?: string } {
    const had = this.registered.get(tool);
    if (had?.key === key) return had;
    const entry = { key, ...serverToolEntry(state, tool) };
    this.registered.set(tool, entry);
    return entry;
  }
}

/** What a server's configuration says of its tools' registrations: one key for all of its tools. */
function registrationKey(state: ServerState): string {
  const c = state.config;
  return JSON.stringify([state.alias, c.builtIn, c.trust, c.sandbox !== undefined, c.sandboxed === true]);
}

/**
 * Whether two declaration lists say the same, compared one declaration at a time: an unchanged tool keeps
 * its declaration object, so only a re-listed one is compared as JSON. (Serialising the whole list, ~700
 * declarations with 100 servers, at every change cost each rebuild a millisecond and a quarter-megabyte
 * string.)
 */
function sameDeclarations(a: FunctionDeclaration[] | undefined, b: FunctionDeclaration[]): boolean {
  if (a?.length !== b.length) return false;
  return b.every((d, i) => d === a[i] || JSON.stringify(d) === JSON.stringify(a[i]));
}

function searchToolsEntry(): RegisteredTool {
  return hostToolEntry(SEARCH_TOOLS_NAME, 'Search tools', SEARCH_TOOLS_DESCRIPTION, SEARCH_TOOLS_SCHEMA);
}

/** The `tools.core` allowlist (see `effectiveCore`): absent means every tool passes. */
function passesCore(core: string[] | undefined, tool: RegisteredTool): boolean {
  return core === undefined || core.some((p) => patternNamesTool(p, tool));
}

/** `tools.exclude` removes a tool; an entry with arguments (`run_shell_command(rm)`) only narrows its use. */
function excluded(exclude: string[], tool: RegisteredTool): boolean {
  return exclude.some((p) => parseToolPattern(p).arg === undefined && patternNamesTool(p, tool));
}
