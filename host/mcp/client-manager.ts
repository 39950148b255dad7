import { EventEmitter } from 'node:events';
import type {
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, ElicitationHandler, ServerState, ServerStatus } from './types.js';
import { withRootArgs } from '../config/builtin-servers.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import { silentLogger, type HostLogger } from '../log.js';
import type { ServerConnection } from './connection.js';
import { ClientRequests } from './client-requests.js';
import { serverRequestHooks } from './server-requests.js';
import { McpCallError } from './errors.js';
import { newSlot, snapshot, type Slot } from './server-slot.js';
import { Supervisor, type ClientHooks } from './supervisor.js';
import type { ListingCache } from './listing-cache.js';
import { ListingKeeper } from './listing-keeper.js';
import { changesNothing } from './tool-filter.js';
import { settled, whenSessionReady, withinMs } from './readiness.js';

export { McpCallError } from './errors.js';
export type { McpCallErrorKind } from './errors.js';
export type { ServerStatus, ServerState, CallOptions, ElicitationHandler } from './types.js';

export interface McpClientManagerOptions {
  servers: ResolvedServerConfig[];
  roots: string[];
  log?: HostLogger;
  elicitationHandler?: ElicitationHandler;
  /** Forms, URL elicitation and sampling from servers; without it forms are declined and sampling refused. */
  clientRequests?: ClientRequests;
  /** Connect + initialize bound per attempt (30 s). */
  connectTimeoutMs?: number;
  /** The level servers are asked to log at (`logging/setLevel`); their messages go to the debug log. */
  logLevel?: 'debug' | 'warning';
  /** Delays before restart attempts 1..n after a crash; its length is the attempt limit. */
  restartBackoffMs?: number[];
  /** How long `whenReady` waits for servers other than the built-in ones (5 s); later ones join the session when up. */
  startupGraceMs?: number;
  /**
   * Where servers' listings are remembered. With it, a `lazy` server whose listing is cached is declared
   * from the cache and started on first use; without it every server starts with the session.
   */
  listingCache?: ListingCache;
}

/** Owns every MCP server connection of a session: start-up, status, calls, crashes and restarts. */
export class McpClientManager extends EventEmitter {
  private readonly slots = new Map<string, Slot>();
  private roots: string[];
  private readonly log: HostLogger;
  private elicitationHandler?: ElicitationHandler;
  readonly clientRequests: ClientRequests;
  private readonly sup: Supervisor;
  private started = false;
  private warmedUp = false;
  private startedAt = 0;
  private readonly startupGraceMs: number;
  private readonly listings?: ListingKeeper;

  constructor(opts: McpClientManagerOptions) {
    super();
    this.roots = [...opts.roots];
    this.log = opts.log ?? silentLogger;
    this.elicitationHandler = opts.elicitationHandler;
    this.clientRequests =
      opts.clientRequests ?? new ClientRequests({ trusted: (a) => !!this.slots.get(a)?.config.trust });
    this.sup = new Supervisor({
      log: this.log,
      connectTimeoutMs: opts.connectTimeoutMs ?? 30_000,
      logLevel: opts.logLevel,
      backoff: opts.restartBackoffMs ?? [1000, 2000, 4000],
      clientHooks: (slot) => this.clientHooks(slot),
      emit: (event, ...args) => {
        this.noteChange(event, args[0]);
        this.emit(event, ...args);
      },
    });
    this.startupGraceMs = opts.startupGraceMs ?? 5000;
    if (opts.listingCache) this.listings = new ListingKeeper(opts.listingCache);
    for (const config of opts.servers) this.slots.set(config.alias, newSlot(config));
  }

  /**
   * Kicks off every connection in parallel and returns at once; one failing server fails nobody else.
   * A lazy server with a cached listing is not started: it is `idle` until first used or `warmUp`.
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.startedAt = Date.now();
    let idle = 0;
    for (const slot of this.slots.values()) {
      const cached = this.listings?.prepare(slot);
      if (!cached) continue;
      // Set quietly: one tools_changed below rebuilds the registry once, not once per server.
      slot.cached = cached;
      slot.status = 'idle';
      idle++;
    }
    for (const slot of this.slots.values()) {
      if (slot.status !== 'idle') slot.firstAttempt = settled(this.sup.connect(slot));
    }
    if (idle) this.emit('tools_changed');
  }

  /**
   * Starts the idle servers recent sessions used (ListingKeeper.warmStarts), in the background: nothing
   * waits for them and a failure is reported by the first call, as for any idle server. The client calls
   * it once its first model request is on its way, so the start hides behind the model's answer instead
   * of competing with the host's own start-up for the CPU.
   */
  warmUp(): void {
    if (this.warmedUp || !this.listings) return;
    this.warmedUp = true;
    if (!this.started) this.start();
    for (const slot of this.listings.warmStarts(this.slots.values())) this.prepare(slot.config.alias);
  }

  /** Starts every server now, idle ones included (`mcp list` and `tools list` show live state). */
  async connectAll(timeoutMs?: number): Promise<void> {
    this.start();
    for (const slot of this.slots.values()) {
      if (slot.status === 'idle') slot.firstAttempt = settled(this.sup.connect(slot));
    }
    await this.whenSettled(timeoutMs);
  }

  /** Resolves when every server has connected or failed its first attempt (or after `timeoutMs`). */
  async whenSettled(timeoutMs?: number): Promise<void> {
    this.start();
    await withinMs(Promise.all([...this.slots.values()].map((s) => s.firstAttempt)), timeoutMs);
  }

  /**
   * Resolves when a session may begin: every built-in server has connected or failed, and every other
   * server has too or the startup grace has passed. A slow server does not hold the session; its tools
   * join when it connects, and `states()` shows it as still connecting (or failed, with the reason).
   */
  async whenReady(): Promise<void> {
    this.start();
    await whenSessionReady([...this.slots.values()], this.startedAt + this.startupGraceMs);
  }

  states(): ServerState[] {
    return [...this.slots.values()].map((s) => snapshot(s));
  }

  state(alias: string): ServerState | undefined {
    const s = this.slots.get(alias);
    return s && snapshot(s);
  }

  /**
   * A server's status and whether it is a built-in, without building its whole state (`state()` filters its
   * tools and copies its stderr tail): the host asks this on every tool call.
   */
  status(alias: string): { status: ServerStatus; builtIn: boolean } | undefined {
    const s = this.slots.get(alias);
    return s && { status: s.status, builtIn: s.config.builtIn };
  }

  /** The pid of a stdio server's current process (diagnostics, tests, RSS measurement). */
  pid(alias: string): number | undefined {
    return this.slots.get(alias)?.conn?.pid;
  }

  setElicitationHandler(h: ElicitationHandler): void {
    this.elicitationHandler = h;
  }

  /**
   * Replaces the workspace roots and tells every connected server (`notifications/roots/list_changed`).
   * A server that got the roots as `--root` (ours) cannot be widened over MCP, so it restarts with the new ones.
   */
  async setRoots(roots: string[]): Promise<void> {
    this.roots = [...roots];
    await Promise.all(
      [...this.slots.values()].map(async (s) => {
        const config = withRootArgs(s.config, roots);
        if (config !== s.config) {
          s.config = config;
          // One still starting comes up with the old arguments: restart it once it is up.
          await s.connecting?.catch(() => undefined);
          if (s.conn) return this.sup.restart(s).catch((e) => this.log.warn(`[${config.alias}] restart: ${e.message}`));
          return;
        }
        return s.conn
          ?.sendRootsChanged()
          .catch((e) => this.log.debug(`[${s.config.alias}] roots notify: ${e.message}`));
      }),
    );
  }

  /** Resolves once every server's list_changed re-listing in flight has reached the registry. */
  async whenListsFresh(): Promise<void> {
    await Promise.all([...this.slots.values()].map((s) => s.conn?.whenFresh()));
  }

  getRoots(): string[] {
    return [...this.roots];
  }

  /** Starts an idle server ahead of its first call; a failure to start is reported by that call. */
  prepare(alias: string): void {
    const slot = this.slots.get(alias);
    if (slot?.status === 'idle') this.ensureConnected(slot).catch(() => undefined);
  }

  async callTool(
    alias: string,
    toolName: string,
    args: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<CallToolResult> {
    const slot = this.slotOf(alias);
    this.listings?.noteUse(slot);
    // Loaded with the first call, like the SDK it uses.
    const { callOnce } = await import('./tool-call.js');
    try {
      if (!this.started) this.start();
      return await callOnce(this.sup, slot, toolName, args, opts);
    } catch (err) {
      // Replaying is safe only for calls that cannot have changed anything: never delivered, or read-only.
      const replayable =
        err instanceof McpCallError && (err.notDelivered || changesNothing(slot.config, slot.lastTools, toolName));
      if (err instanceof McpCallError && err.kind === 'crashed' && !opts.signal?.aborted && replayable) {
        this.log.info(`[${alias}] retrying '${toolName}' once after reconnecting`);
        return await callOnce(this.sup, slot, toolName, args, opts);
      }
      throw err;
    }
  }

  async listResources(alias: string): Promise<Resource[]> {
    const slot = this.slotOf(alias);
    const conn = await this.ensureConnected(slot);
    await conn.refreshResources();
    return conn.resources;
  }

  /** `completion/complete` for a prompt argument; a server without completions suggests nothing. */
  async completePromptArgument(
    alias: string,
    prompt: string,
    arg: string,
    value: string,
    context: Record<string, string> = {},
  ): Promise<string[]> {
    const { client } = await this.ensureConnected(this.slotOf(alias));
    if (!client.getServerCapabilities()?.completions) return [];
    const ref = { type: 'ref/prompt' as const, name: prompt };
    return (await client.complete({ ref, argument: { name: arg, value }, context: { arguments: context } })).completion
      .values;
  }

  async listResourceTemplates(alias: string): Promise<ResourceTemplate[]> {
    const conn = await this.ensureConnected(this.slotOf(alias));
    if (!conn.client.getServerCapabilities()?.resources) return [];
    return (await conn.client.listResourceTemplates()).resourceTemplates;
  }

  async readResource(alias: string, uri: string): Promise<ReadResourceResult> {
    const conn = await this.ensureConnected(this.slotOf(alias));
    return conn.client.readResource({ uri });
  }

  /**
   * A resource read that an idle server answers from the cache, when the server said which files its
   * text depends on and none of them changed since; otherwise a live read (starting the server), cached
   * for next time. `fromCache` tells the caller no subscription is in place.
   */
  async readResourceCached(alias: string, uri: string): Promise<ReadResourceResult & { fromCache?: boolean }> {
    const slot = this.slotOf(alias);
    const text = this.listings?.cachedResource(slot, uri, this.roots);
    if (text !== undefined) return { contents: [{ uri, text }], fromCache: true };
    const res = await this.readResource(alias, uri);
    this.listings?.storeResource(slot, uri, this.roots, res);
    return res;
  }

  async subscribeResource(alias: string, uri: string): Promise<void> {
    const conn = await this.ensureConnected(this.slotOf(alias));
    await conn.client.subscribeResource({ uri });
  }

  async getPrompt(alias: string, name: string, args: Record<string, unknown> = {}): Promise<GetPromptResult> {
    const conn = await this.ensureConnected(this.slotOf(alias));
    // prompts/get takes string arguments only.
    const strArgs = Object.fromEntries(
      Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
    return conn.client.getPrompt({ name, arguments: strArgs });
  }

  /** Manual restart (`/mcp restart`): a fresh process and a fresh set of automatic restart attempts. */
  async restart(alias: string): Promise<void> {
    await this.sup.restart(this.slotOf(alias));
  }

  async close(): Promise<void> {
    // A first-time server still connecting gets a short while to finish, so the next session need not start it.
    await this.listings?.letFirstConnectsFinish(this.slots.values());
    await this.sup.close(this.slots.values());
  }

  /** Listings are remembered whenever a server connects or re-lists. */
  private noteChange(event: string, arg: unknown): void {
    if (!this.listings || !/^(status|tools_changed|prompts_changed|resources_changed)$/.test(event)) return;
    const alias = event === 'status' ? (arg as ServerState).alias : typeof arg === 'string' ? arg : undefined;
    const slot = alias ? this.slots.get(alias) : undefined;
    if (slot) this.listings.remember(slot);
  }

  private slotOf(alias: string): Slot {
    const slot = this.slots.get(alias);
    if (!slot) throw new McpCallError('unknown_server', `Unknown MCP server '${alias}'`, alias);
    return slot;
  }

  private ensureConnected(slot: Slot): Promise<ServerConnection> {
    if (!this.started) this.start();
    return this.sup.ensureConnected(slot);
  }

  private clientHooks(slot: Slot): ClientHooks {
    return serverRequestHooks(slot, {
      roots: () => this.roots,
      requests: this.clientRequests,
      confirmations: () => this.elicitationHandler,
    });
  }
}
