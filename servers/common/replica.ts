import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** The response header naming the replica that answered (every HTTP response carries it). */
export const REPLICA_HEADER = 'Mcp-Replica-Id';

/**
 * A replica id is the first part of every session id it mints and a load balancer's server name, so it
 * stays within the characters both accept and never holds the separator.
 */
const REPLICA_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function validReplicaId(id: string): boolean {
  return REPLICA_ID.test(id);
}

/** `hostname-pid`, reduced to the allowed characters: unique per process on a host without configuration. */
export function defaultReplicaId(host = hostname(), pid = process.pid): string {
  const name = host.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40) || 'replica';
  return `${name}-${pid}`;
}

/**
 * `<replica>.<uuid>`: the prefix tells a load balancer which replica holds the session without a table
 * (so routing survives its restart); the random part keeps the id unguessable.
 */
export function mintSessionId(replicaId: string): string {
  return `${replicaId}.${randomUUID()}`;
}
