import type { OAuthFlags } from './auth-flags.js';

/** What every server's entry parses from its command line (the transport layer reads it too). */
export interface CommonFlags {
  transport: 'stdio' | 'http';
  port: number;
  host: string;
  token?: string;
  roots: string[];
  projectTempDir?: string;
  debug: boolean;
  /** Browser origins accepted over HTTP besides the server's own (`*` for any, `null` for opaque ones). */
  allowOrigins: string[];
  /** HTTP: Host names (with or without port) accepted besides the bind address and localhost: a load balancer's public name (`--public-host`). */
  publicHosts: string[];
  /** HTTP: this replica's id, the prefix of every session id it mints and sent in the Mcp-Replica-Id header. */
  replicaId: string;
  /** HTTP: no sessions; every request is served by a server of its own (only where the server allows it). */
  stateless: boolean;
  /** Streamable HTTP sessions held at once. */
  maxSessions: number;
  /** A Streamable HTTP session with nothing open for this long is closed. */
  sessionIdleMs: number;
  /** HTTP: the request headers must arrive within this long. */
  headersTimeoutMs: number;
  /** HTTP: the whole request (headers and body) must arrive within this long. */
  requestTimeoutMs: number;
  /** HTTP: requests of one session answered at once; more wait their turn. */
  maxSessionRequests: number;
  /** HTTP: a response whose unsent output the client does not take for this long is cut. */
  writeStallMs: number;
  /** HTTP: on SIGTERM, how long calls in flight may take to finish before the sessions close. */
  shutdownGraceMs: number;
  /** HTTP: accept OAuth JWT access tokens (exclusive with `token`). */
  auth?: OAuthFlags;
}

export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;
