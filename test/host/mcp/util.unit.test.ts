import { describe, expect, it } from 'vitest';
import { describeConnectError, resourceText, sleep } from '../../../host/mcp/util.js';

describe('describeConnectError', () => {
  it('a missing command says so; other errors are their message', () => {
    const enoent = Object.assign(new Error('spawn my-server ENOENT'), { code: 'ENOENT' });
    expect(describeConnectError(enoent)).toBe('command not found (spawn my-server ENOENT)');
    expect(describeConnectError(new Error('Connection closed'))).toBe('Connection closed');
    expect(describeConnectError('text')).toBe('text');
  });
});

describe('resourceText', () => {
  it('text parts joined by lines, blobs left out', () => {
    expect(resourceText({ contents: [{ text: 'a' }, { blob: 'AAAA' }, { text: 'b' }] })).toBe('a\n\nb');
    expect(resourceText({ contents: [] })).toBe('');
  });
});

describe('sleep', () => {
  it('an aborted signal ends it at once, before or during the wait', async () => {
    const ac = new AbortController();
    ac.abort();
    await sleep(60_000, ac.signal);
    const later = new AbortController();
    const waiting = sleep(60_000, later.signal);
    later.abort();
    await waiting;
  });
});
