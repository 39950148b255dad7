import { EventEmitter } from 'node:events';
import {
  CallToolResultSchema,
  type CallToolResult,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type GetPromptResult,
  type ReadResourceResult,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, ElicitationHandler, ServerState, ServerStatus } from './types.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import { silentLogger, type HostLogger } from '../log.js';
import { ServerConnection } from './connection.js';
import { ClientRequests } from './client-requests.js';
import { McpCallError, withTail } from './errors.js';
import { StderrTail } from './stderr-tail.js';
import { PausableTimer } from './timer.js';
import { describeConnectError, settleSoon, sleep } from './util.js';
import { filterTools, isRetryableAfterCrash, looksLikeConnectionLoss } from './tool-filter.js';

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
  /** Delays before restart attempts 1..n after a crash; its length is the attempt limit. */
  restartBackoffMs?: number[];
}

const DEFAULT_BACKOFF_MS = [1000, 2000, 4000];
/** A connection that stayed up this long earns a fresh set of restart attempts when it next dies. */
const STABLE_UPTIME_MS = 30_000;

interface InFlight {
  timer: PausableTimer;
}

interface Slot {
  config: ResolvedServerConfig;
  status: ServerStatus;
  error?: string;
  stderr: StderrTail;
  conn?: ServerConnection;
  connecting?: Promise<ServerConnection>;
  recovering?: Promise<ServerConnection>;
  firstAttempt: Promise<void>;
  connectedAt: number;
  failuresInRow: number;
  restarts: number;
  calls: Set<InFlight>;
  openElicitations: number;
  /** The last tool list seen, kept across a crash to decide whether a call may be replayed. */
  lastTools: Tool[];
}

/** Owns every MCP server connection of a session: start-up, status, calls, crashes and restarts. */
export class McpClientManager extends EventEmitter {
  private readonly slots = new Map<string, Slot>();
  private roots: string[];
  private readonly log: HostLogger;
  private elicitationHandler?: ElicitationHandler;
  readonly clientRequests: ClientRequests;
  private readonly connectTimeoutMs: number;
  private readonly backoff: number[];
  private started = false;
  private closed = false;
  private readonly closeController = new AbortController();

  constructor(opts: McpClientManagerOptions) {
    super();
    this.roots = [...opts.roots];
    this.log = opts.log ?? silentLogger;
    this.elicitationHandler = opts.elicitationHandler;
    this.clientRequests = opts.clientRequests ?? new ClientRequests({ trusted: (a) => !!this.slots.get(a)?.config.trust });
    this.connectTimeoutMs = opts.connectTimeoutMs ?? 30_000;
    this.backoff = opts.restartBackoffMs ?? DEFAULT_BACKOFF_MS;
    for (const config of opts.servers) {
      this.slots.set(config.alias, {
        config, status: 'connecting', stderr: new StderrTail(), firstAttempt: Promise.resolve(),
        connectedAt: 0, failuresInRow: 0, restarts: 0, calls: new Set(), openElicitations: 0, lastTools: [],
      });
    }
  }

  /** Kicks off every connection in parallel and returns at once; one failing server fails nobody else. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const slot of this.slots.values()) {
      slot.firstAttempt = this.connect(slot).then(() => undefined, () => undefined);
    }
  }

  /** Resolves when every server has connected or failed its first attempt (or after `timeoutMs`). */
  async whenSettled(timeoutMs?: number): Promise<void> {
    this.start();
    const all = Promise.all([...this.slots.values()].map((s) => s.firstAttempt)).then(() => undefined);
    if (timeoutMs === undefined) return all;
    let t: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((r) => (t = setTimeout(r, timeoutMs)))]);
    clearTimeout(t);
  }

  states(): ServerState[] {
    return [...this.slots.values()].map((s) => this.snapshot(s));
  }

  state(alias: string): ServerState | undefined {
    const s = this.slots.get(alias);
    return s && this.snapshot(s);
  }

  /** The pid of a stdio server's current process (diagnostics, tests, RSS measurement). */
  pid(alias: string): number | undefined {
    return this.slots.get(alias)?.conn?.pid;
  }

  setElicitationHandler(h: ElicitationHandler): void {
    this.elicitationHandler = h;
  }

  /** Replaces the workspace roots and tells every connected server (`notifications/roots/list_changed`). */
  async setRoots(roots: string[]): Promise<void> {
    this.roots = [...roots];
    await Promise.all(
      [...this.slots.values()].map((s) => s.conn?.sendRootsChanged().catch((e) => this.log.debug(`[${s.config.alias}] roots notify: ${e.message}`))),
    );
  }

  /** Resolves once every server's list_changed re-listing in flight has reached the registry. */
  async whenListsFresh(): Promise<void> {
    await Promise.all([...this.slots.values()].map((s) => s.conn?.whenFresh()));
  }

  getRoots(): string[] {
    return [...this.roots];
  }

  async callTool(alias: string, toolName: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallToolResult> {
    const slot = this.slotOf(alias);
    try {
      return await this.callOnce(slot, toolName, args, opts);
    } catch (err) {
      // Replaying is safe only for calls that cannot have changed anything.
      if (err instanceof McpCallError && err.kind === 'crashed' && !opts.signal?.aborted && isRetryableAfterCrash(slot.config, slot.lastTools, toolName)) {
        this.log.info(`[${alias}] retrying read-only tool '${toolName}' after the restart`);
        return await this.callOnce(slot, toolName, args, opts);
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

  async readResource(alias: string, uri: string): Promise<ReadResourceResult> {
    const conn = await this.ensureConnected(this.slotOf(alias));
    return conn.client.readResource({ uri });
  }

  async subscribeResource(alias: string, uri: string): Promise<void> {
    const conn = await this.ensureConnected(this.slotOf(alias));
    await conn.client.subscribeResource({ uri });
  }

  async getPrompt(alias: string, name: string, args: Record<string, unknown> = {}): Promise<GetPromptResult> {
    const conn = await this.ensureConnected(this.slotOf(alias));
    // prompts/get takes string arguments only.
    const strArgs = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    return conn.client.getPrompt({ name, arguments: strArgs });
  }

  /** Manual restart (`/mcp restart`): a fresh process and a fresh set of automatic restart attempts. */
  async restart(alias: string): Promise<void> {
    const slot = this.slotOf(alias);
    const old = slot.conn;
    slot.conn = undefined;
    slot.failuresInRow = 0;
    if (old) await old.close();
    slot.restarts++;
    slot.stderr.mark('restart requested');
    await this.connect(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closeController.abort();
    await Promise.all([...this.slots.values()].map(async (s) => {
      const pending = s.connecting;
      const conn = s.conn;
      s.conn = undefined;
      await conn?.close();
      await pending?.then((c) => c.close(), () => undefined);
    }));
  }

  // ---- internals ----

  private slotOf(alias: string): Slot {
    const slot = this.slots.get(alias);
    if (!slot) throw new McpCallError('unknown_server', `Unknown MCP server '${alias}'`, alias);
    return slot;
  }

  private snapshot(s: Slot): ServerState {
    const conn = s.conn;
    const tools = conn ? filterTools(conn.tools, s.config) : [];
    return {
      alias: s.config.alias, config: s.config, status: s.status, error: s.error, stderrTail: s.stderr.text(),
      tools, instructions: conn?.instructions, prompts: conn?.prompts ?? [], resources: conn?.resources ?? [],
      restarts: s.restarts, connectedVia: conn?.kind, pid: conn?.pid,
    };
  }

  private setStatus(slot: Slot, status: ServerStatus, error?: string): void {
    slot.status = status;
    slot.error = error;
    this.emit('status', this.snapshot(slot));
  }

  /** One connection attempt; a failed attempt inside a restart sequence leaves the server 'disconnected'. */
  private connect(slot: Slot, duringRecovery = false): Promise<ServerConnection> {
    if (slot.connecting) return slot.connecting;
    if (this.closed) return Promise.reject(new Error('the MCP client manager is closed'));
    this.setStatus(slot, 'connecting');
    const attempt = ServerConnection.open({
      config: slot.config,
      stderr: slot.stderr,
      log: this.log,
      connectTimeoutMs: this.connectTimeoutMs,
      hooks: {
        roots: () => this.roots,
        elicit: (params, signal) => this.elicit(slot, params, signal),
        sample: (params, signal) => this.sample(slot, params, signal),
        closed: (conn, reason) => this.onLost(slot, conn, reason),
        listChanged: (conn, what) => {
          if (slot.conn !== conn) return;
          if (what === 'tools') slot.lastTools = conn.tools;
          this.emit(what === 'tools' ? 'tools_changed' : what === 'prompts' ? 'prompts_changed' : 'resources_changed', slot.config.alias);
        },
        resourceUpdated: (uri) => this.emit('resource_updated', slot.config.alias, uri),
      },
    });
    slot.connecting = attempt.then(
      async (conn) => {
        slot.connecting = undefined;
        if (this.closed) {
          await conn.close();
          throw new Error('the MCP client manager is closed');
        }
        slot.conn = conn;
        slot.connectedAt = Date.now();
        slot.lastTools = conn.tools;
        this.setStatus(slot, 'connected');
        this.emit('tools_changed', slot.config.alias);
        this.emit('prompts_changed', slot.config.alias);
        this.log.debug(`[${slot.config.alias}] connected over ${conn.kind}: ${conn.tools.length} tools`);
        return conn;
      },
      (err: unknown) => {
        slot.connecting = undefined;
        const reason = withTail(describeConnectError(err), slot.stderr.text());
        this.setStatus(slot, duringRecovery ? 'disconnected' : 'failed', reason);
        this.log.warn(`[${slot.config.alias}] failed to connect: ${reason}`);
        throw new Error(reason);
      },
    );
    return slot.connecting;
  }

  /** The connection died on its own: fail its calls (the SDK rejects them) and start restarting. */
  private onLost(slot: Slot, conn: ServerConnection, reason: string): void {
    if (slot.conn !== conn || this.closed) return;
    slot.conn = undefined;
    void conn.close();
    if (Date.now() - slot.connectedAt >= STABLE_UPTIME_MS) slot.failuresInRow = 0;
    this.setStatus(slot, 'disconnected', reason);
    this.emit('tools_changed', slot.config.alias);
    this.log.warn(`[${slot.config.alias}] ${reason}; restarting`);
    this.recover(slot).catch(() => undefined);
  }

  /** Restart with backoff; after the last attempt the server stays failed until a manual restart. */
  private recover(slot: Slot): Promise<ServerConnection> {
    if (slot.recovering) return slot.recovering;
    const alias = slot.config.alias;
    slot.recovering = (async () => {
      let last = slot.error ?? 'disconnected';
      while (slot.failuresInRow < this.backoff.length) {
        const delay = this.backoff[slot.failuresInRow]!;
        slot.failuresInRow++;
        await sleep(delay, this.closeController.signal);
        if (this.closed) throw new Error('the MCP client manager is closed');
        slot.restarts++;
        slot.stderr.mark(`restart attempt ${slot.failuresInRow}`);
        try {
          return await this.connect(slot, true);
        } catch (err) {
          last = (err as Error).message;
        }
      }
      const reason = `gave up after ${this.backoff.length} restart attempts; last error: ${last}`;
      this.setStatus(slot, 'failed', reason);
      throw new Error(`MCP server '${alias}' ${reason}`);
    })().finally(() => (slot.recovering = undefined));
    return slot.recovering;
  }

  private async ensureConnected(slot: Slot): Promise<ServerConnection> {
    if (slot.conn) return slot.conn;
    const alias = slot.config.alias;
    if (slot.connecting) return slot.connecting;
    if (slot.recovering) return slot.recovering;
    if (!this.started) this.start();
    if (slot.conn) return slot.conn;
    if (slot.connecting) return slot.connecting;
    throw new McpCallError('not_connected', `MCP server '${alias}' is not connected: ${slot.error ?? slot.status}`, alias);
  }

  private async callOnce(slot: Slot, toolName: string, args: Record<string, unknown>, opts: CallOptions): Promise<CallToolResult> {
    const alias = slot.config.alias;
    if (opts.signal?.aborted) throw new McpCallError('cancelled', `Call to '${toolName}' on MCP server '${alias}' was cancelled`, alias);
    let conn: ServerConnection;
    try {
      conn = await this.ensureConnected(slot);
    } catch (err) {
      if (err instanceof McpCallError) throw err;
      throw new McpCallError('not_connected', `MCP server '${alias}' is not connected: ${(err as Error).message}`, alias);
    }
    const timeoutMs = opts.timeoutMs ?? slot.config.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const onAbort = () => controller.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const call: InFlight = {
      timer: new PausableTimer(timeoutMs, () => {
        timedOut = true;
        controller.abort(new Error('timeout'));
      }),
    };
    if (slot.openElicitations > 0) call.timer.pause();
    slot.calls.add(call);
    try {
      // A raw request rather than client.callTool: that one throws on outputSchema mismatches, which the
      // host wants to treat as an ordinary (bad) result, not a protocol failure.
      const result = await conn.client.request(
        { method: 'tools/call', params: { name: toolName, arguments: args, ...(opts.meta ? { _meta: opts.meta } : {}) } },
        CallToolResultSchema,
        {
          signal: controller.signal,
          // The host timer above is the real bound; the SDK's must never fire first.
          timeout: 2 ** 31 - 1,
          ...(opts.onProgress ? { onprogress: (p) => opts.onProgress!(p) } : {}),
        },
      );
      return result as CallToolResult;
    } catch (err) {
      if (timedOut) {
        throw new McpCallError('timeout', `MCP server '${alias}': tool '${toolName}' timed out after ${timeoutMs} ms (the server was sent a cancellation)`, alias);
      }
      if (opts.signal?.aborted) throw new McpCallError('cancelled', `Call to '${toolName}' on MCP server '${alias}' was cancelled`, alias);
      if (this.closed) throw new McpCallError('cancelled', `Call to '${toolName}' on MCP server '${alias}' was cancelled: the session is closing`, alias);
      if (conn.lostReason || looksLikeConnectionLoss(err)) {
        // Remote transports do not always report the loss through onclose.
        if (!conn.lostReason && slot.conn === conn) this.onLost(slot, conn, `connection lost: ${(err as Error).message}`);
        await settleSoon();
        const what = conn.kind === 'stdio' ? 'crashed' : 'lost its connection';
        throw new McpCallError('crashed', withTail(`MCP server '${alias}' ${what} during the call to '${toolName}' (${conn.lostReason ?? (err as Error).message}); it is being restarted.`, slot.stderr.text()), alias);
      }
      throw new McpCallError('protocol', `MCP server '${alias}' failed the call to '${toolName}': ${(err as Error).message}`, alias);
    } finally {
      call.timer.clear();
      slot.calls.delete(call);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  private elicit(slot: Slot, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    // Our servers' typed confirmations go to the approval broker; anything else is a form for the user.
    if (!ClientRequests.isConfirmation(params)) return this.whileAsking(slot, () => this.clientRequests.elicit(slot.config.alias, params, signal));
    const handler = this.elicitationHandler;
    if (!handler) return Promise.resolve({ action: 'cancel' });
    return this.whileAsking(slot, () => handler(slot.config.alias, params, signal));
  }

  private sample(slot: Slot, params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult> {
    return this.whileAsking(slot, () => this.clientRequests.createMessage(slot.config.alias, params, signal));
  }

  /** The user (or the model, for sampling) may take minutes: no call of this server times out meanwhile. */
  private async whileAsking<T>(slot: Slot, ask: () => Promise<T>): Promise<T> {
    if (slot.openElicitations++ === 0) for (const c of slot.calls) c.timer.pause();
    try {
      return await ask();
    } finally {
      if (--slot.openElicitations === 0) for (const c of slot.calls) c.timer.resume();
    }
  }
}
