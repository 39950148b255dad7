import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * The header a replicated server names itself in (our servers send it on every response): `mcp list`
 * shows it, so a user behind a load balancer can tell which replica holds the session.
 */
const REPLICA_HEADER = 'mcp-replica-id';

/** What the server sends is shown in a terminal: only a short plain id is taken. */
const PLAIN_ID = /^[A-Za-z0-9_.-]{1,64}$/;

const replicas = new WeakMap<Transport, { id?: string }>();

/** A fetch that remembers the replica id of the latest response carrying one. */
export function replicaRecordingFetch(base: FetchLike): { fetch: FetchLike; bind: (t: Transport) => void } {
  const seen: { id?: string } = {};
  const fetch: FetchLike = async (url, init) => {
    const res = await base(url, init);
    const id = res.headers.get(REPLICA_HEADER);
    if (id !== null && PLAIN_ID.test(id)) seen.id = id;
    return res;
  };
  return { fetch, bind: (t) => replicas.set(t, seen) };
}

/** The replica that answered the transport's latest request, when the server names one. */
export function transportReplica(t: Transport): string | undefined {
  return replicas.get(t)?.id;
}
