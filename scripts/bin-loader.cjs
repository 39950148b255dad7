'use strict';
// Runs one bundled bin (dist/bin/impl/<name>.cjs) through vm.Script with V8's code cache, so a process
// deserializes the compiled bundle instead of parsing and compiling ~1-3 MB of JavaScript at every
// start (Node 20 offers no code cache for ES modules, and module.enableCompileCache is Node 22+).
//
// The cache lives in dist/bin/cache, next to the code it was made from: whoever can write it can
// write the bundles too, so it adds no trust. Its file name carries the bundle's size and mtime and
// the Node version and architecture; V8 itself rejects data from another V8 version or flags, and the
// bundle then compiles from source as usual. The build writes the cache from a warm-up run
// (scripts/warm-code-cache.mjs: a headless session and each server's first requests), so it holds the
// functions a session compiles, not only the bundle's top level; afterwards a process writes it when
// it exits only if there was none or V8 rejected it. Writing is atomic and best-effort: a read-only
// install just runs without it.
const { isAscii } = require('node:buffer');
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createRequire, wrap } = require('node:module');
const { basename, dirname, join } = require('node:path');
const { fileURLToPath } = require('node:url');
const { setFlagsFromString } = require('node:v8');
const vm = require('node:vm');

/**
 * Where a bundle's cache lives: dist/bin/cache/`<name>-<size>-<mtime>-<node>-<arch>.v8`. `stale` tells
 * this bin's caches made from another build of the bundle (those of other Node versions stay: nvm users
 * switch back and forth).
 */
function cacheOf(bundle) {
  const st = statSync(bundle);
  const name = basename(bundle, '.cjs');
  const build = `${name}-${st.size}-${Math.trunc(st.mtimeMs)}-`;
  const ours = /^\d+-\d+-v[\d.]+-\w+\.v8$/;
  return {
    dir: join(dirname(bundle), '..', 'cache'),
    file: `${build}${process.version}-${process.arch}.v8`,
    stale: (f) => f.startsWith(`${name}-`) && ours.test(f.slice(name.length + 1)) && !f.startsWith(build),
  };
}

function readCache(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Atomically replaces the cache and drops this bin's stale ones. */
function writeCache(script, cache) {
  try {
    mkdirSync(cache.dir, { recursive: true });
    const path = join(cache.dir, cache.file);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, path);
    for (const f of readdirSync(cache.dir)) if (cache.stale(f)) rmSync(join(cache.dir, f), { force: true });
  } catch {
    // a read-only install or a full disk only costs the cache
  }
}

/** Compiles and runs the bundle at `url` as a CommonJS module. */
function runBundle(url) {
  // WebAssembly in our processes is small and short-lived: undici's HTTP parser behind fetch and
  // tree-sitter's bash grammar. By default V8 also compiles it with TurboFan on a background thread,
  // ~130 ms of CPU that exit then waits for (a one-turn session ended ~150 ms after its answer);
  // Liftoff's code alone is plenty for parsing model responses and shell commands. Set before the
  // bundle is compiled, so the code cache is made and used under the same flags.
  setFlagsFromString('--liftoff-only');
  const bundle = fileURLToPath(url);
  const cache = cacheOf(bundle);
  const cachedData = readCache(join(cache.dir, cache.file));
  // esbuild escapes non-ASCII text except in a few places (regex literals): an ASCII bundle decodes
  // exactly as Latin-1, which is faster than UTF-8 for a few MB.
  const bytes = readFileSync(bundle);
  // The entry's `#!` line is valid only at the very start of a script, not inside the module wrapper.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8').replace(/^#!/, '//');
  const script = new vm.Script(wrap(source), {
    filename: bundle,
    cachedData,
  });
  const state = !cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
  if (process.env.GEMINI_MCP_DEBUG) process.stderr.write(`[bin-loader] ${basename(bundle)}: code cache ${state}\n`);
  // The build's warm-up run writes it whatever it found.
  if (state !== 'used' || process.env.GEMINI_MCP_CODE_CACHE === 'write') {
    process.once('exit', () => writeCache(script, cache));
  }
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));
}

module.exports = runBundle;
// The cache's name and place, for the tests.
module.exports.cacheOf = cacheOf;
