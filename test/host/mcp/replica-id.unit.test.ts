import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it } from 'vitest';
import { replicaRecordingFetch, transportReplica } from '../../../host/mcp/replica-id.js';

/** A fetch of the module's own FetchLike shape, answering with the scripted replica headers in turn. */
function scripted(ids: (string | null)[]) {
  return async () => {
    const id = ids.shift();
    return new Response('{}', { headers: id === null || id === undefined ? {} : { 'Mcp-Replica-Id': id } });
  };
}
const transport = () => ({}) as Transport;

describe('replicaRecordingFetch', () => {
  it('remembers the replica of the latest response that names one', async () => {
    const { fetch, bind } = replicaRecordingFetch(scripted(['web-1', null, 'web-2']));
    const t = transport();
    bind(t);
    expect(transportReplica(t)).toBeUndefined();
    await fetch('http://x/mcp');
    expect(transportReplica(t)).toBe('web-1');
    await fetch('http://x/mcp');
    expect(transportReplica(t)).toBe('web-1');
    await fetch('http://x/mcp');
    expect(transportReplica(t)).toBe('web-2');
  });

  it('an id that is not a short plain name is ignored (it would be shown in a terminal)', async () => {
    const bad = ['\u001b]0;owned\u0007', 'a b', 'x'.repeat(65), '', 'a/b'];
    const { fetch, bind } = replicaRecordingFetch(scripted(['ok.1', ...bad]));
    const t = transport();
    bind(t);
    for (let i = 0; i <= bad.length; i++) await fetch('http://x/mcp');
    expect(transportReplica(t)).toBe('ok.1');
  });

  it('passes the response through untouched, and transports are kept apart', async () => {
    const a = replicaRecordingFetch(scripted(['r-a']));
    const b = replicaRecordingFetch(scripted(['r-b']));
    const ta = transport();
    const tb = transport();
    a.bind(ta);
    b.bind(tb);
    const res = await a.fetch('http://x/mcp');
    expect(await res.json()).toEqual({});
    await b.fetch('http://x/mcp');
    expect([transportReplica(ta), transportReplica(tb), transportReplica(transport())]).toEqual([
      'r-a',
      'r-b',
      undefined,
    ]);
  });
});
