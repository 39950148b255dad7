import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TokenStore } from '../../../../host/mcp/oauth/token-store.js';
import { tempDir } from '../../../helpers/tmp.js';

const base = tempDir('gmc-tokens-');
let n = 0;
const fresh = () => join(base, `home${++n}`, '.gemini', 'mcp-oauth-tokens.json');
const tokens = (access: string) => ({ access_token: access, token_type: 'Bearer' });

describe('TokenStore', () => {
  it('nothing stored: undefined; an update creates the file 0600 in a 0700 folder', () => {
    const file = fresh();
    const store = new TokenStore(file);
    expect(store.get('crm', 'https://crm.example/mcp')).toBeUndefined();
    store.update('crm', 'https://crm.example/mcp', (e) => ({ ...e, tokens: tokens('a1'), savedAt: 5 }));
    expect(store.get('crm', 'https://crm.example/mcp')).toEqual({
      serverName: 'crm',
      serverUrl: 'https://crm.example/mcp',
      tokens: tokens('a1'),
      savedAt: 5,
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
  });

  it('a file that was readable by others is 0600 again after a write', () => {
    const file = fresh();
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    new TokenStore(file).update('s', 'u', (e) => ({ ...e, tokens: tokens('x') }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('entries are keyed by name and URL: a server that moved starts over; others are kept', () => {
    const store = new TokenStore(fresh());
    store.update('crm', 'https://old.example/mcp', (e) => ({ ...e, tokens: tokens('old') }));
    store.update('wiki', 'https://wiki.example/mcp', (e) => ({ ...e, tokens: tokens('w') }));
    expect(store.get('crm', 'https://new.example/mcp')).toBeUndefined();
    store.update('crm', 'https://old.example/mcp', (e) => ({ ...e, clientInformation: { client_id: 'c1' } }));
    expect(store.get('crm', 'https://old.example/mcp')).toMatchObject({
      tokens: tokens('old'),
      clientInformation: { client_id: 'c1' },
    });
    expect(store.get('wiki', 'https://wiki.example/mcp')?.tokens).toEqual(tokens('w'));
  });

  it('remove drops one entry and says whether there was one', () => {
    const file = fresh();
    const store = new TokenStore(file);
    store.update('a', 'u', (e) => ({ ...e, tokens: tokens('1') }));
    store.update('b', 'u', (e) => ({ ...e, tokens: tokens('2') }));
    expect(store.remove('a', 'u')).toBe(true);
    expect(store.remove('a', 'u')).toBe(false);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')))).toEqual(['b|u']);
  });

  it('a malformed file reads as empty; a change keeps it aside (the other sign-ins in it are not lost) and leaves no temp files', () => {
    const file = fresh();
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '{ "b|u": { "tokens": torn');
    const store = new TokenStore(file);
    expect(store.get('a', 'u')).toBeUndefined();
    store.update('a', 'u', (e) => ({ ...e, tokens: tokens('1') }));
    const names = readdirSync(join(file, '..')).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toBe('mcp-oauth-tokens.json');
    expect(names[1]).toMatch(/^mcp-oauth-tokens\.json\.unreadable-\d+$/);
    expect(readFileSync(join(file, '..', names[1]!), 'utf8')).toBe('{ "b|u": { "tokens": torn');
    expect(new TokenStore(file).get('a', 'u')?.tokens).toEqual(tokens('1'));
  });

  it('a token file that cannot be read stops a change with the reason and is left as it is', () => {
    const file = fresh();
    // A folder in the file's place reads with EISDIR, as root too (root reads a mode-0 file).
    mkdirSync(file, { recursive: true });
    writeFileSync(join(file, 'keep'), 'x');
    expect(() => new TokenStore(file).update('a', 'u', (e) => e)).toThrow(/Cannot read the OAuth token file .*EISDIR/);
    expect(readdirSync(file)).toEqual(['keep']);
  });
});
