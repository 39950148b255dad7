import type { ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { KitServer } from './create-server.js';
import type { Outbox } from './http-outbox.js';
import type { Logger } from './logger.js';

export interface HttpSession {
  transport: StreamableHTTPServerTransport;
  server: KitServer;
  /** The session's unsent output: paces its responses and holds back new requests while it is over the bound. */
  outbox: Outbox;
  /** Requests and streams (the standalone GET stream included) open right now. */
  open: number;
  lastUsed: number;
  /** Who opened it (the token's issuer and subject); only the same owner may use it. */
  owner?: string;
}

export interface SessionLimits {
  /** Sessions held at once; a new one evicts the least recently used idle one. */
  maxSessions: number;
  /** A session with nothing open for this long is closed (its id then gets 404). */
  idleMs: number;
}

/**
 * The live Streamable HTTP sessions. A client that never sends DELETE must not grow the server without
 * bound, so sessions are capped and idle ones expire; both end with the session's server closed.
 */
export class SessionTable {
  private readonly byId = new Map<string, HttpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly log: Logger,
  ) {
    // Checked at a fraction of the timeout so a session outlives it by at most half again.
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(limits.idleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * The session, if `owner` opened it. Another user's session is answered like an unknown one (404): a
   * token holder learns nothing of which ids are live, and a client told 404 opens its own session.
   */
  get(id: string, owner?: string): HttpSession | undefined {
    const session = this.byId.get(id);
    return session?.owner === owner ? session : undefined;
  }

  /** Makes room for one more session; false when every held session is busy. */
  makeRoom(): boolean {
    if (this.byId.size < this.limits.maxSessions) return true;
    let lru: [string, HttpSession] | undefined;
    for (const entry of this.byId) {
      if (entry[1].open === 0 && (!lru || entry[1].lastUsed < lru[1].lastUsed)) lru = entry;
    }
    if (!lru) return false;
    this.log.info(
      `http: session limit (${this.limits.maxSessions}) reached; closing the least recently used idle session`,
    );
    this.end(lru[0], lru[1]);
    return true;
  }

  add(id: string, session: HttpSession): void {
    this.byId.set(id, session);
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  /** Counts a request or stream as open until its response closes; its output goes through the session's outbox. */
  track(session: HttpSession, done: ServerResponse): void {
    session.outbox.pace(done);
    session.open++;
    session.lastUsed = Date.now();
    done.once('close', () => {
      session.open--;
      session.lastUsed = Date.now();
    });
  }

  sweep(now = Date.now()): void {
    for (const [id, s] of this.byId) {
      if (s.open === 0 && now - s.lastUsed >= this.limits.idleMs) {
        this.log.debug(`http: session ${id} idle for ${now - s.lastUsed} ms; closing it`);
        this.end(id, s);
      }
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.byId.values()];
    this.byId.clear();
    await Promise.allSettled(all.map((s) => s.server.mcp.close()));
  }

  private end(id: string, s: HttpSession): void {
    this.byId.delete(id);
    void s.server.mcp.close().catch((err: Error) => this.log.debug(`http: closing session ${id}: ${err.message}`));
  }
}
