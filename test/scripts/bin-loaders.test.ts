import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRY, REPO } from '../helpers/paths.js';
import { reply, startScriptedGemini } from '../helpers/scripted-gemini.mjs';
import { tempDir } from '../helpers/tmp.js';

const loader = createRequire(import.meta.url)('../../scripts/bin-loader.cjs') as {
  cacheOf(bundle: string): { file: string };
};
/** The cache file name the loader uses for a bundle on this Node. */
const cacheName = (bundle: string) => loader.cacheOf(bundle).file;

/** A private copy of dist/bin inside the repository (so node_modules resolves) that a test may damage. */
function binCopy(): string {
  const dir = join(REPO, 'dist/test-modules', String(process.pid), 'bin-copy', 'bin');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(REPO, 'dist/bin'), dir, { recursive: true, preserveTimestamps: true });
  afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));
  return dir;
}

function version(bin: string) {
  const r = spawnSync(process.execPath, [bin, '--version'], {
    env: { ...process.env, GEMINI_MCP_DEBUG: '1' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  return /code cache (\w+)/.exec(r.stderr)?.[1];
}

describe('bin loaders: each bundle runs through V8 code cache built by npm run build', () => {
  it('every bin hands an existing bundle to the loader, and the build left a cache for it on this Node', () => {
    for (const bin of Object.values(ENTRY)) {
      const target = /'(impl\/[^']+\.cjs)'/.exec(readFileSync(bin, 'utf8'))?.[1];
      expect(target, `${bin} names no bundle`).toBeDefined();
      const bundle = join(bin, '..', target!);
      expect(existsSync(bundle), `${bin} names a missing bundle`).toBe(true);
      expect(existsSync(join(REPO, 'dist/bin/cache', cacheName(bundle))), `no cache for ${target}`).toBe(true);
    }
  });

  it('the host uses the cache: V8 accepts it', () => {
    expect(version(ENTRY.host)).toBe('used');
  });

  // The loader sets V8 flags per bin (Liftoff-only WebAssembly, later TurboFan) before compiling; the
  // cache must have been made under the same flags, or V8 rejects it at every start.
  it('every server uses its cache too, with or without WebAssembly', () => {
    for (const [name, bin] of Object.entries(ENTRY)) {
      if (name === 'host') continue;
      const r = spawnSync(process.execPath, [bin, '--no-such-option'], {
        env: { ...process.env, GEMINI_MCP_DEBUG: '1' },
        encoding: 'utf8',
      });
      expect(/code cache (\w+)/.exec(r.stderr)?.[1], `${name}: ${r.stderr}`).toBe('used');
    }
  });

  it('the .mjs bins of earlier builds still run, through the same bundle and cache', () => {
    for (const bin of Object.values(ENTRY)) {
      const legacy = bin.replace(/\.cjs$/, '.mjs');
      expect(existsSync(legacy), legacy).toBe(true);
    }
    expect(version(ENTRY.host.replace(/\.cjs$/, '.mjs'))).toBe('used');
  });

  // Node's own modules come with a code cache in the node binary, which V8 takes only under the flags it
  // was made with: whatever the bundle needs is loaded before the loader changes V8's flags.
  it('the built-in modules a run needs are recorded with the cache and loaded before the flags change', () => {
    const file = join(REPO, 'dist/bin/cache', cacheName(join(REPO, 'dist/bin/impl/gemini-mcp.cjs')));
    const head = readFileSync(file, 'latin1').split('\n', 1)[0];
    const recorded = JSON.parse(head).builtins as string[];
    expect(recorded).toEqual(expect.arrayContaining(['http', 'child_process', 'crypto']));
    expect((head.length + 1) % 8, 'V8 copies data that is not pointer-aligned').toBe(0);
    // A preload notes what is loaded when the loader first sets a flag.
    const dir = join(REPO, 'dist/test-modules', String(process.pid));
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, 'flags-probe.cjs');
    writeFileSync(
      probe,
      `const v8 = require('node:v8'); const set = v8.setFlagsFromString;
       v8.setFlagsFromString = (f) => { if (!globalThis.seen) globalThis.seen = process.moduleLoadList.join('|'), process.stderr.write('LOADED ' + globalThis.seen + '\\n'); return set.call(v8, f); };`,
    );
    const r = spawnSync(process.execPath, ['-r', probe, ENTRY.host, '--version'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const loaded = /LOADED (.*)/.exec(r.stderr)?.[1].split('|') ?? [];
    for (const m of ['http', 'child_process', 'crypto', 'internal/webstreams/readablestream'])
      expect(loaded, m).toContain(`NativeModule ${m}`);
  });

  // The cache file's buffer is promoted to the old generation while V8 compiles from it; only a full
  // collection would free it once dropped, and a short run never has one.
  it("the code cache's memory is freed once the bundle is compiled, in the host and in a server", () => {
    const dir = join(REPO, 'dist/test-modules', String(process.pid));
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, 'array-buffers-probe.cjs');
    // At exit, young garbage enough for V8 to collect the young generation at least once: a buffer that
    // is only dead (a file read and dropped) goes with that collection, one the old generation holds stays.
    writeFileSync(
      probe,
      `process.on('exit', () => {
         let n = 0;
         for (let i = 0; i < 40000; i++) n += [i, i + 1, i + 2, i + 3].length;
         process.stderr.write('ARRAY_BUFFERS ' + process.memoryUsage().arrayBuffers + ' ' + n + '\\n');
       });`,
    );
    const runs = [
      [ENTRY.host, '--version'],
      [ENTRY.filesystem, '--no-such-option'],
    ] as const;
    for (const [bin, arg] of runs) {
      const bundle = join(bin, '..', /'(impl\/[^']+\.cjs)'/.exec(readFileSync(bin, 'utf8'))![1]!);
      const cacheBytes = statSync(join(REPO, 'dist/bin/cache', cacheName(bundle))).size;
      expect(cacheBytes, bundle).toBeGreaterThan(256 * 1024);
      const r = spawnSync(process.execPath, ['-r', probe, bin, arg], {
        env: { ...process.env, GEMINI_MCP_DEBUG: '1' },
        encoding: 'utf8',
      });
      expect(/code cache (\w+)/.exec(r.stderr)?.[1], r.stderr).toBe('used');
      const held = Number(/ARRAY_BUFFERS (\d+)/.exec(r.stderr)?.[1]);
      expect(held, `${bin}: ${r.stderr}`).toBeLessThan(128 * 1024);
    }
  });

  // A long session's garbage (the whole history serialised each turn) would otherwise let the old
  // generation grow to four times what is live before a full collection, and the pages stay resident.
  it('every bin runs with the old generation capped at one and a half times what survives a full collection', () => {
    const dir = join(REPO, 'dist/test-modules', String(process.pid));
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, 'flag-list-probe.cjs');
    writeFileSync(
      probe,
      `const v8 = require('node:v8'); const set = v8.setFlagsFromString; const flags = [];
       v8.setFlagsFromString = (f) => { flags.push(f); return set.call(v8, f); };
       process.on('exit', () => process.stderr.write('FLAGS ' + flags.join(' ') + '\\n'));`,
    );
    for (const [name, bin] of Object.entries(ENTRY)) {
      const r = spawnSync(process.execPath, ['-r', probe, bin, name === 'host' ? '--version' : '--no-such-option'], {
        encoding: 'utf8',
      });
      expect(/FLAGS (.*)/.exec(r.stderr)?.[1].split(' '), `${name}: ${r.stderr}`).toContain(
        '--heap-growing-percent=50',
      );
    }
  });

  it('a damaged cache is rejected, the bin still runs, and the cache is written anew', () => {
    const dir = binCopy();
    const bin = join(dir, 'gemini-mcp.cjs');
    const file = join(dir, 'cache', cacheName(join(dir, 'impl/gemini-mcp.cjs')));
    writeFileSync(file, Buffer.alloc(4096, 7));
    expect(version(bin)).toBe('rejected');
    expect(statSync(file).size).toBeGreaterThan(4096);
    expect(version(bin)).toBe('used');
    // A first line that looks like ours but is not: the whole file is V8's to judge.
    writeFileSync(file, Buffer.concat([Buffer.from('{"builtins": [\n'), Buffer.alloc(4096, 7)]));
    expect(version(bin)).toBe('rejected');
    expect(readFileSync(file, 'latin1')).toMatch(/^\{"builtins":\["/);
    expect(version(bin)).toBe('used');
  });

  it('a thin cache written by a --version run is replaced by a session; a full one is left alone', async () => {
    const dir = binCopy();
    const bin = join(dir, 'gemini-mcp.cjs');
    const file = join(dir, 'cache', cacheName(join(dir, 'impl/gemini-mcp.cjs')));
    // The copy's mtime may differ from the build's by a rounding, and then its cache is missing already.
    rmSync(file, { force: true });
    expect(version(bin)).toBe('missing');
    const thin = statSync(file);
    // Another --version compiles no more: the file stays as it is.
    expect(version(bin)).toBe('used');
    expect(statSync(file).mtimeMs).toBe(thin.mtimeMs);

    const ep = await startScriptedGemini([], { responder: () => reply.text('All done.') });
    const home = tempDir('gmc-thin-cache-');
    try {
      const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const env = { ...process.env, HOME: home, GEMINI_CLI_HOME: home, GEMINI_API_KEY: 'k', GEMINI_MCP_DEBUG: '1' };
        const c = spawn(process.execPath, [bin, '-p', 'Say something.'], {
          cwd: home,
          env: { ...env, GOOGLE_GEMINI_BASE_URL: ep.url, CI: '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        c.stdout.on('data', (d) => (stdout += d));
        c.stderr.on('data', (d) => (stderr += d));
        c.on('close', (code) => resolve({ code, stdout, stderr }));
      });
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toContain('All done.');
      expect(out.stderr).toContain('code cache used');
    } finally {
      await ep.close();
    }
    const rich = statSync(file);
    expect(rich.size).toBeGreaterThan(thin.size * 1.25);
    // From a full cache, a --version run writes nothing.
    expect(version(bin)).toBe('used');
    expect(statSync(file).mtimeMs).toBe(rich.mtimeMs);
  });

  it('a missing cache is written at exit; caches of an older bundle go, other Node versions stay', () => {
    const dir = binCopy();
    const bin = join(dir, 'gemini-mcp.cjs');
    const cache = join(dir, 'cache');
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache);
    const older = 'gemini-mcp-12-34-v20.0.0-x64.v8';
    const sameBundleOtherNode = cacheName(join(dir, 'impl/gemini-mcp.cjs')).replace(process.version, 'v99.0.0');
    const otherBin = 'gemini-mcp-web-12-34-v20.0.0-x64.v8';
    for (const f of [older, sameBundleOtherNode, otherBin]) writeFileSync(join(cache, f), 'x');
    expect(version(bin)).toBe('missing');
    const left = readdirSync(cache).sort();
    expect(left).toEqual([cacheName(join(dir, 'impl/gemini-mcp.cjs')), otherBin, sameBundleOtherNode].sort());
    expect(version(bin)).toBe('used');
  });

  it("the build's warm-up makes the filesystem server's read-only calls, each answered without an error", async () => {
    const dir = binCopy();
    const bundle = join(dir, 'impl/gemini-mcp-filesystem.cjs');
    const cache = join(dir, 'cache', cacheName(bundle));
    rmSync(cache, { force: true });
    const { warmCodeCaches } = (await import('../../scripts/warm-code-cache.mjs')) as {
      warmCodeCaches(binDir: string, names: string[]): Promise<string[]>;
    };
    // A call that failed (a renamed tool, a changed argument) would name the server here.
    expect(await warmCodeCaches(dir, ['gemini-mcp-filesystem'])).toEqual([]);
    expect(statSync(cache).size).toBeGreaterThan(0);
  });
});
