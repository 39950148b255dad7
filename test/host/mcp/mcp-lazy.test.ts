import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { McpClientManager, McpCallError } from '../../../host/mcp/client-manager.js';
import { ListingCache, listingKey } from '../../../host/mcp/listing-cache.js';
import type { ResolvedServerConfig } from '../../../host/config/servers.js';
import { REPO } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { textOf } from '../../helpers/mcp.js';
import { waitFor } from '../../helpers/wait.js';

const managers: McpClientManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

/** A copy of the fault server a test may change; inside the repository so its SDK import resolves. */
function faultCopy(): string {
  const dir = join(REPO, 'dist/test-modules');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, `fault-server-copy-${process.pid}.mjs`);
  copyFileSync(join(REPO, 'test/fixtures/fault-server.mjs'), entry);
  afterAll(() => rmSync(entry, { force: true }));
  return entry;
}

function config(
  alias: string,
  entry: string,
  stateDir: string,
  extra: Partial<ResolvedServerConfig> = {},
): ResolvedServerConfig {
  return {
    alias,
    builtIn: false,
    trust: false,
    transport: 'stdio',
    command: process.execPath,
    args: [entry],
    env: { PATH: process.env.PATH!, FAULT_STATE_DIR: stateDir },
    cwd: REPO,
    timeoutMs: 600_000,
    ...extra,
  };
}

function manager(servers: ResolvedServerConfig[], cacheDir: string): McpClientManager {
  const m = new McpClientManager({ servers, roots: [REPO], listingCache: new ListingCache(cacheDir) });
  managers.push(m);
  return m;
}

/** One session that connects and leaves its listing in the cache. */
async function primeCache(servers: ResolvedServerConfig[], cacheDir: string): Promise<void> {
  const m = manager(servers, cacheDir);
  await m.whenSettled();
  for (const s of servers) expect(m.state(s.alias)!.status).toBe('connected');
  await waitFor(
    () => servers.every((s) => new ListingCache(cacheDir).get(listingKey(s)) !== undefined),
    'cache written',
  );
  await m.close();
}

describe('lazy start from the listing cache', () => {
  const entry = join(REPO, 'test/fixtures/fault-server.mjs');

  it('a server never seen before starts with the session and fills the cache', async () => {
    const cacheDir = tempDir();
    const m = manager([config('f', entry, tempDir())], cacheDir);
    m.start();
    expect(m.state('f')!.status).toBe('connecting');
    await m.whenSettled();
    expect(m.state('f')!.status).toBe('connected');
    await waitFor(() => readdirSync(cacheDir).some((f) => f.endsWith('.json')), 'cache file');
    expect(new ListingCache(cacheDir).get(listingKey(config('f', entry, tempDir())))).toBeUndefined(); // another env: another key
  });

  it('a cached server is not spawned until its tool is called; the call then works', async () => {
    const cacheDir = tempDir();
    const state = tempDir();
    const cfg = config('f', entry, state);
    await primeCache([cfg], cacheDir);

    const m = manager([cfg], cacheDir);
    m.start();
    await m.whenSettled();
    const s = m.state('f')!;
    expect(s.status).toBe('idle');
    expect(s.fromCache).toBe(true);
    expect(m.pid('f')).toBeUndefined();
    expect(s.tools.map((t) => t.name)).toContain('echo');
    expect(s.instructions).toBe('Fault server: use with care.');

    expect(textOf(await m.callTool('f', 'echo', { text: 'woke up' }))).toBe('woke up');
    expect(m.state('f')!.status).toBe('connected');
    expect(m.pid('f')).toBeGreaterThan(0);
    expect(m.state('f')!.fromCache).toBeUndefined();
  });

  it('prepare() starts only the named idle server, ahead of its call; unknown names are ignored', async () => {
    const cacheDir = tempDir();
    const a = config('a', entry, tempDir());
    const b = config('b', entry, tempDir());
    await primeCache([a, b], cacheDir);

    const m = manager([a, b], cacheDir);
    m.start();
    expect(m.state('a')!.status).toBe('idle');
    m.prepare('a');
    m.prepare('no-such-server');
    expect(m.state('a')!.status).toBe('connecting');
    await waitFor(() => m.state('a')!.status === 'connected', 'a connected');
    expect(m.state('b')!.status).toBe('idle');
    const pid = m.pid('a');
    expect(textOf(await m.callTool('a', 'echo', { text: 'same process' }))).toBe('same process');
    expect(m.pid('a')).toBe(pid);
  });

  it('a changed entry file makes the cache stale: the server starts at once and the cache is refreshed', async () => {
    const cacheDir = tempDir();
    const copy = faultCopy();
    const cfg = config('f', copy, tempDir());
    await primeCache([cfg], cacheDir);
    const before = listingKey(cfg);
    appendFileSync(copy, '\n// changed\n');
    const after = listingKey(cfg);
    expect(after).not.toBe(before);

    const m = manager([cfg], cacheDir);
    m.start();
    expect(m.state('f')!.status).toBe('connecting');
    await m.whenSettled();
    expect(m.state('f')!.status).toBe('connected');
    await waitFor(() => new ListingCache(cacheDir).get(after) !== undefined, 'refreshed cache');
  });

  it('startup "eager" spawns at start even with a cached listing', async () => {
    const cacheDir = tempDir();
    const cfg = config('f', entry, tempDir());
    await primeCache([cfg], cacheDir);
    const m = manager([{ ...cfg, startup: 'eager' }], cacheDir);
    m.start();
    expect(m.state('f')!.status).toBe('connecting');
    await m.whenSettled();
    expect(m.pid('f')).toBeGreaterThan(0);
  });

  it('a cached tool the server no longer offers fails with a clear error, and the registry view updates', async () => {
    const cacheDir = tempDir();
    const cfg = config('f', entry, tempDir());
    await primeCache([cfg], cacheDir);
    const cache = new ListingCache(cacheDir);
    const listing = cache.get(listingKey(cfg))!;
    cache.put(listingKey(cfg), {
      ...listing,
      tools: [...listing.tools, { name: 'vanished', inputSchema: { type: 'object' } }],
    });

    const m = manager([cfg], cacheDir);
    const changes: string[] = [];
    m.on('tools_changed', (a: string) => changes.push(a));
    m.start();
    expect(m.state('f')!.tools.map((t) => t.name)).toContain('vanished');
    const err = await m.callTool('f', 'vanished', {}).catch((e) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect(err.kind).toBe('unknown_tool');
    expect(err.message).toContain("no longer offers the tool 'vanished'");
    expect(m.state('f')!.tools.map((t) => t.name)).not.toContain('vanished');
    expect(changes).toContain('f');
    // The cache now holds the live list.
    await waitFor(
      () => !new ListingCache(cacheDir).get(listingKey(cfg))!.tools.some((t) => t.name === 'vanished'),
      'cache refresh',
    );
  });

  it('a read-only call of a trusted server goes out before its tool list is in; other calls wait for it', async () => {
    const cacheDir = tempDir();
    const slowList = (alias: string, trust: boolean) => {
      const cfg = config(alias, entry, tempDir(), { trust });
      return { ...cfg, env: { ...cfg.env, FAULT_LIST_DELAY_MS: '3000' } };
    };
    const trusted = slowList('trusted', true);
    const untrusted = slowList('untrusted', false);
    await primeCache([trusted, untrusted], cacheDir);
    const m = manager([trusted, untrusted], cacheDir);
    m.start();
    // `echo` is annotated read-only: believed for the trusted server, which answers while still listing.
    expect(textOf(await m.callTool('trusted', 'echo', { text: 'early' }))).toBe('early');
    expect(m.state('trusted')!.status).toBe('connecting');
    // The same annotation from a server we do not trust is not believed: the call waits for the list.
    expect(textOf(await m.callTool('untrusted', 'echo', { text: 'late' }))).toBe('late');
    expect(m.state('untrusted')!.status).toBe('connected');
    // So does a call that may change something, on the trusted server too.
    expect(textOf(await m.callTool('trusted', 'add_tool', {}))).toBe('added');
    expect(m.state('trusted')!.status).toBe('connected');
  });

  it('an early call the caller cancels ends at once, without waiting for the tool list', async () => {
    const cacheDir = tempDir();
    const state = tempDir();
    const base = config('f', entry, state, { trust: true });
    const cfg = { ...base, env: { ...base.env, FAULT_LIST_DELAY_MS: '5000' } };
    await primeCache([cfg], cacheDir);
    const m = manager([cfg], cacheDir);
    m.start();
    const ac = new AbortController();
    // `hang` is read-only and never answers: it goes out early; Esc comes while the list is still out.
    const call = m.callTool('f', 'hang', {}, { signal: ac.signal }).catch((e) => e);
    const calls = join(state, 'calls.log');
    await waitFor(() => existsSync(calls) && readFileSync(calls, 'utf8').includes('hang'), 'the call at the server');
    ac.abort(new Error('user pressed Esc'));
    const err = await call;
    expect(err.kind).toBe('cancelled');
    expect(m.state('f')!.status).toBe('connecting');
  });

  it('an early read-only call of a tool the live list no longer has fails as a stale tool', async () => {
    const cacheDir = tempDir();
    const base = config('f', entry, tempDir(), { trust: true });
    const cfg = { ...base, env: { ...base.env, FAULT_LIST_DELAY_MS: '500' } };
    await primeCache([cfg], cacheDir);
    const cache = new ListingCache(cacheDir);
    const listing = cache.get(listingKey(cfg))!;
    const gone = { name: 'vanished_ro', inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } };
    cache.put(listingKey(cfg), { ...listing, tools: [...listing.tools, gone] });
    const m = manager([cfg], cacheDir);
    m.start();
    const err = await m.callTool('f', 'vanished_ro', {}).catch((e) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect(err.kind).toBe('unknown_tool');
    expect(m.state('f')!.tools.map((t) => t.name)).not.toContain('vanished_ro');
  });

  it('connectAll starts idle servers (live state for mcp list / tools list)', async () => {
    const cacheDir = tempDir();
    const cfg = config('f', entry, tempDir());
    await primeCache([cfg], cacheDir);
    const m = manager([cfg], cacheDir);
    await m.connectAll();
    expect(m.state('f')!.status).toBe('connected');
    expect(existsSync(cacheDir)).toBe(true);
  });

  it('without a cache every server starts with the session', async () => {
    const m = new McpClientManager({ servers: [config('f', entry, tempDir())], roots: [REPO] });
    managers.push(m);
    await m.whenSettled();
    expect(m.state('f')!.status).toBe('connected');
  });

  it('a call stamps the use; warmUp then starts only servers used within the week, nothing waits for them', async () => {
    const cacheDir = tempDir();
    const used = config('used', entry, tempDir());
    const stale = config('stale', entry, tempDir());
    const never = config('never', entry, tempDir());
    await primeCache([used, stale, never], cacheDir);
    const cache = new ListingCache(cacheDir);
    expect(cache.get(listingKey(used))!.usedAt).toBeUndefined();

    const first = manager([used, stale, never], cacheDir);
    first.start();
    await first.callTool('used', 'echo', { text: 'x' });
    await waitFor(() => cache.get(listingKey(used))?.usedAt !== undefined, 'use stamped');
    const weekAgo = Date.now() - 8 * 24 * 3600 * 1000;
    cache.put(listingKey(stale), { ...cache.get(listingKey(stale))!, usedAt: weekAgo });
    await first.close();

    const m = manager([used, stale, never], cacheDir);
    m.start();
    expect(m.states().map((s) => s.status)).toEqual(['idle', 'idle', 'idle']);
    await m.whenReady();
    m.warmUp();
    m.warmUp();
    expect(m.state('used')!.status).toBe('connecting');
    await waitFor(() => m.state('used')!.status === 'connected', 'warm server connected');
    expect(m.state('stale')!.status).toBe('idle');
    expect(m.state('never')!.status).toBe('idle');
  });

  it('a server whose listing did not change does not rewrite the cache when it connects', async () => {
    const cacheDir = tempDir();
    const cfg = config('f', entry, tempDir());
    await primeCache([cfg], cacheDir);
    const cache = new ListingCache(cacheDir);
    const savedAt = cache.get(listingKey(cfg))!.savedAt;
    const m = manager([cfg], cacheDir);
    m.start();
    expect(textOf(await m.callTool('f', 'echo', { text: 'again' }))).toBe('again');
    await m.close();
    // The call stamped the use (one write); a second session within the hour writes nothing.
    const stamped = cache.get(listingKey(cfg))!;
    expect(stamped.usedAt).toBeGreaterThan(0);
    expect(stamped.savedAt).toBeGreaterThanOrEqual(savedAt);
    const m2 = manager([cfg], cacheDir);
    m2.start();
    expect(textOf(await m2.callTool('f', 'echo', { text: 'once more' }))).toBe('once more');
    await m2.close();
    expect(cache.get(listingKey(cfg))!.savedAt).toBe(stamped.savedAt);
  });
});
