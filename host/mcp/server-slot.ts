import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import type { ServerConnection } from './connection.js';
import type { CachedListing } from './listing-cache.js';
import { StderrTail } from './stderr-tail.js';
import type { PausableTimer } from './timer.js';
import { filterTools } from './tool-filter.js';
import type { ServerState, ServerStatus } from './types.js';

export interface InFlight {
  timer: PausableTimer;
}

/** Everything the host knows about one configured server, across connections and restarts. */
export interface Slot {
  config: ResolvedServerConfig;
  status: ServerStatus;
  error?: string;
  stderr: StderrTail;
  conn?: ServerConnection;
  connecting?: Promise<ServerConnection>;
  /**
   * While `connecting`: the connection as soon as it is initialized, before its lists are in (undefined
   * if the attempt failed first).
   */
  initialized?: Promise<ServerConnection | undefined>;
  recovering?: Promise<ServerConnection>;
  firstAttempt: Promise<void>;
  connectedAt: number;
  failuresInRow: number;
  restarts: number;
  calls: Set<InFlight>;
  openElicitations: number;
  /**
   * The last tool list seen. It stays registered while the server restarts (calls wait for the restart)
   * and decides whether a call cut by a crash may be replayed.
   */
  lastTools: Tool[];
  /** Calls waiting for the outcome of the next restart attempt. */
  restartWaiters: Array<{ resolve: (c: ServerConnection) => void; reject: (e: Error) => void }>;
  /** The listing-cache key of this configuration, and the listing found there at start. */
  cacheKey?: string;
  cached?: CachedListing;
}

export function newSlot(config: ResolvedServerConfig): Slot {
  return {
    config,
    status: 'connecting',
    stderr: new StderrTail(),
    firstAttempt: Promise.resolve(),
    connectedAt: 0,
    failuresInRow: 0,
    restarts: 0,
    calls: new Set(),
    openElicitations: 0,
    lastTools: [],
    restartWaiters: [],
  };
}

/** Until a cached server first connects (idle, or starting for its first use), its cached listing stands in. */
function standIn(s: Slot): CachedListing | undefined {
  if (s.conn || !s.cached || s.connectedAt) return undefined;
  return s.status === 'idle' || s.status === 'connecting' ? s.cached : undefined;
}

export function snapshot(s: Slot): ServerState {
  const conn = s.conn;
  const cached = standIn(s);
  const offer = conn ?? cached;
  const tools = offer ? filterTools(offer.tools, s.config) : s.recovering ? filterTools(s.lastTools, s.config) : [];
  return {
    alias: s.config.alias,
    config: s.config,
    status: s.status,
    error: s.error,
    stderrTail: s.stderr.text(),
    tools,
    instructions: offer?.instructions,
    prompts: offer?.prompts ?? [],
    resources: offer?.resources ?? [],
    restarts: s.restarts,
    connectedVia: conn?.kind,
    pid: conn?.pid,
    ...(conn?.replicaId ? { replicaId: conn.replicaId } : {}),
    ...(cached ? { fromCache: true } : {}),
  };
}
