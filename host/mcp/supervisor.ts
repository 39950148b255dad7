import { setMaxListeners } from 'node:events';
import type { HostLogger } from '../log.js';
import type { ConnectionHooks, ServerConnection } from './connection.js';
import { McpCallError, withTail } from './errors.js';
import { snapshot, type Slot } from './server-slot.js';
import type { ServerStatus } from './types.js';
import { describeConnectError, sleep } from './util.js';

/** A connection that stayed up this long earns a fresh set of restart attempts when it next dies. */
const STABLE_UPTIME_MS = 30_000;

/** Requests a server sends to us (roots, elicitation, sampling); the manager answers them. */
export type ClientHooks = Omit<ConnectionHooks, 'closed' | 'listChanged' | 'resourceUpdated'>;

export interface SupervisorOptions {
  log: HostLogger;
  connectTimeoutMs: number;
  /** Sent as `logging/setLevel` to servers that log. */
  logLevel?: 'debug' | 'warning';
  /** Delays before restart attempts 1..n after a crash; its length is the attempt limit. */
  backoff: number[];
  clientHooks(slot: Slot): ClientHooks;
  /** Manager events: status, tools_changed, prompts_changed, resources_changed, resource_updated. */
  emit(event: string, ...args: unknown[]): void;
}

/**
 * The lifecycle of every server connection: connect attempts, status changes, loss detection and
 * restarts with backoff. It never runs tool calls; it hands out live connections.
 */
export class Supervisor {
  private closedFlag = false;
  private readonly closeController = new AbortController();

  constructor(private readonly opts: SupervisorOptions) {
    // Every connecting server listens on this one signal until it is up: a session may start dozens.
    setMaxListeners(0, this.closeController.signal);
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  setStatus(slot: Slot, status: ServerStatus, error?: string): void {
    slot.status = status;
    slot.error = error;
    this.opts.emit('status', snapshot(slot));
  }

  /** One connection attempt; a failed attempt inside a restart sequence leaves the server 'disconnected'. */
  connect(slot: Slot, duringRecovery = false): Promise<ServerConnection> {
    if (slot.connecting) return slot.connecting;
    if (this.closedFlag) return Promise.reject(new Error('the MCP client manager is closed'));
    this.setStatus(slot, 'connecting');
    let initialized: (conn: ServerConnection | undefined) => void = () => {};
    slot.initialized = new Promise((resolve) => (initialized = resolve));
    // The MCP SDK loads with the first connection: a session whose servers are all idle never needs it.
    const attempt = import('./connection.js').then(({ ServerConnection }) =>
      ServerConnection.open({
        config: slot.config,
        stderr: slot.stderr,
        log: this.opts.log,
        connectTimeoutMs: slot.config.connectTimeoutMs ?? this.opts.connectTimeoutMs,
        signal: this.closeController.signal,
        logLevel: this.opts.logLevel,
        onInitialized: initialized,
        hooks: {
          ...this.opts.clientHooks(slot),
          closed: (conn, reason) => this.lost(slot, conn, reason),
          listChanged: (conn, what) => {
            if (slot.conn !== conn) return;
            if (what === 'tools') slot.lastTools = conn.tools;
            this.opts.emit(
              what === 'tools' ? 'tools_changed' : what === 'prompts' ? 'prompts_changed' : 'resources_changed',
              slot.config.alias,
            );
          },
          resourceUpdated: (uri) => this.opts.emit('resource_updated', slot.config.alias, uri),
        },
      }),
    );
    slot.connecting = attempt.then(
      (conn) => this.onConnected(slot, conn),
      (err: unknown) => {
        initialized(undefined);
        slot.connecting = undefined;
        slot.initialized = undefined;
        const reason = withTail(describeConnectError(err), slot.stderr.text());
        this.setStatus(slot, duringRecovery ? 'disconnected' : 'failed', reason);
        this.opts.log.warn(`[${slot.config.alias}] failed to connect: ${reason}`);
        throw new Error(reason);
      },
    );
    return slot.connecting;
  }

  private async onConnected(slot: Slot, conn: ServerConnection): Promise<ServerConnection> {
    slot.connecting = undefined;
    slot.initialized = undefined;
    if (this.closedFlag) {
      await conn.close();
      throw new Error('the MCP client manager is closed');
    }
    slot.conn = conn;
    slot.connectedAt = Date.now();
    slot.lastTools = conn.tools;
    this.setStatus(slot, 'connected');
    this.opts.emit('tools_changed', slot.config.alias);
    this.opts.emit('prompts_changed', slot.config.alias);
    this.opts.log.debug(`[${slot.config.alias}] connected over ${conn.kind}: ${conn.tools.length} tools`);
    return conn;
  }

  /**
   * The connection died on its own: fail its calls (the SDK rejects them) and start restarting, at once
   * when `immediate` (a remote server that dropped our session is up; only a new session is needed).
   */
  lost(slot: Slot, conn: ServerConnection, reason: string, immediate = false): void {
    if (slot.conn !== conn || this.closedFlag) return;
    slot.conn = undefined;
    void conn.close();
    if (Date.now() - slot.connectedAt >= STABLE_UPTIME_MS) slot.failuresInRow = 0;
    // Recovery first: while it runs the server's tools stay registered, so the status event below
    // must not drop them.
    this.recover(slot, immediate).catch(() => undefined);
    this.setStatus(slot, 'disconnected', reason);
    this.opts.emit('tools_changed', slot.config.alias);
    this.opts.log.warn(`[${slot.config.alias}] ${reason}; restarting`);
  }

  /** Restart with backoff; after the last attempt the server stays failed until a manual restart. */
  private recover(slot: Slot, immediate: boolean): Promise<ServerConnection> {
    if (slot.recovering) return slot.recovering;
    const { backoff } = this.opts;
    slot.recovering = (async () => {
      let last = slot.error ?? 'disconnected';
      let first = true;
      while (slot.failuresInRow < backoff.length) {
        const delay = immediate && first ? 0 : backoff[slot.failuresInRow]!;
        first = false;
        slot.failuresInRow++;
        await sleep(delay, this.closeController.signal);
        if (this.closedFlag) throw new Error('the MCP client manager is closed');
        slot.restarts++;
        slot.stderr.mark(`restart attempt ${slot.failuresInRow}`);
        try {
          const conn = await this.connect(slot, true);
          settleWaiters(slot, conn);
          return conn;
        } catch (err) {
          last = (err as Error).message;
          settleWaiters(
            slot,
            new Error(
              `MCP server '${slot.config.alias}' could not be restarted (attempt ${slot.failuresInRow}): ${last}`,
            ),
          );
        }
      }
      const reason = `gave up after ${backoff.length} restart attempts; last error: ${last}`;
      throw new Error(`MCP server '${slot.config.alias}' ${reason}`);
    })();
    slot.recovering.catch((err: Error) => {
      slot.recovering = undefined;
      settleWaiters(slot, err);
      // The tools leave the registry with this status event.
      if (!this.closedFlag)
        this.setStatus(slot, 'failed', err.message.replace(`MCP server '${slot.config.alias}' `, ''));
    });
    slot.recovering.then(
      () => (slot.recovering = undefined),
      () => undefined,
    );
    return slot.recovering;
  }

  /**
   * The live connection, the attempt under way, or (while restarting) the outcome of the next restart
   * attempt; a failed server gives its reason.
   */
  async ensureConnected(slot: Slot): Promise<ServerConnection> {
    if (slot.conn) return slot.conn;
    if (slot.connecting) return slot.connecting;
    if (slot.recovering) return new Promise((resolve, reject) => slot.restartWaiters.push({ resolve, reject }));
    // A server declared from the listing cache starts on its first use.
    if (slot.status === 'idle') return this.connect(slot);
    const alias = slot.config.alias;
    throw new McpCallError(
      'not_connected',
      `MCP server '${alias}' is not connected: ${slot.error ?? slot.status}`,
      alias,
    );
  }

  /** Manual restart (`/mcp restart`): a fresh process and a fresh set of automatic restart attempts. */
  async restart(slot: Slot): Promise<void> {
    const old = slot.conn;
    slot.conn = undefined;
    slot.failuresInRow = 0;
    if (old) await old.close();
    slot.restarts++;
    slot.stderr.mark('restart requested');
    await this.connect(slot);
  }

  async close(slots: Iterable<Slot>): Promise<void> {
    this.closedFlag = true;
    this.closeController.abort();
    await Promise.all(
      [...slots].map(async (s) => {
        settleWaiters(s, new Error('the MCP client manager is closed'));
        const pending = s.connecting;
        const conn = s.conn;
        s.conn = undefined;
        await conn?.close();
        await pending?.then(
          (c) => c.close(),
          () => undefined,
        );
      }),
    );
  }
}

function settleWaiters(slot: Slot, outcome: ServerConnection | Error): void {
  const waiters = slot.restartWaiters.splice(0);
  for (const w of waiters) outcome instanceof Error ? w.reject(outcome) : w.resolve(outcome);
}
