'use strict';
// Runs one bundled bin (dist/bin/impl/<name>.cjs) through vm.Script so that V8's code cache applies
// (loader/code-cache.cjs), with Liftoff-only WebAssembly (loader/wasm-liftoff.cjs), TurboFan kept for
// what runs long (loader/turbofan-later.cjs), a young generation that does not grow
// (loader/young-generation.cjs) and an old generation that grows to at most one and a half times what is live
// (loader/old-generation.cjs), after loading the built-in modules the bundle needs while V8 can still
// use their code cache (loader/builtins.cjs). Each trick's module says what it saves. The build writes
// the cache from a warm-up run (scripts/warm-code-cache.mjs), so it holds the functions a session
// compiles, not only the bundle's top level; afterwards a process writes it when it exits only if there
// was none, V8 rejected it, or it held little and the run compiled much more.
const { readFileSync, statSync } = require('node:fs');
const { createRequire } = require('node:module');
const { basename, dirname } = require('node:path');
const vm = require('node:vm');
const { loadBuiltins, loadedNow, loadedSince } = require('./loader/builtins.cjs');
const { cacheOf, readCache, writeCache } = require('./loader/code-cache.cjs');
const { optimizeLater } = require('./loader/turbofan-later.cjs');
const { keepYoungGenerationSmall } = require('./loader/young-generation.cjs');
const { capOldGenerationGrowth } = require('./loader/old-generation.cjs');
const { useLiftoffOnly } = require('./loader/wasm-liftoff.cjs');

/** A cache under this share of its bundle's size holds little of what a session compiles (a full one ~1). */
const THIN_SHARE = 0.5;
/** How much larger than a thin cache what a run compiled must be to replace it. */
const RICHER = 1.25;

function thinCache(bytes, bundle) {
  try {
    return bytes > 0 && bytes < statSync(bundle).size * THIN_SHARE;
  } catch {
    return false;
  }
}

/**
 * Compiles and runs the bundle at `bundle` (a path) as a CommonJS module. `wasm: false` is for bins that
 * never run WebAssembly: they skip the Liftoff switch.
 */
function runBundle(bundle, { wasm = true } = {}) {
  const cache = cacheOf(bundle);
  const read = readCache(cache);
  let cachedData = read.data;
  const before = loadedNow();
  // Before any flag changes: V8 then still takes Node's code cache for them.
  loadBuiltins(read.builtins);
  if (wasm) useLiftoffOnly();
  optimizeLater();
  keepYoungGenerationSmall();
  capOldGenerationGrowth();
  // The build writes the bundle as a module wrapper, `(function (exports, require, …) {…})`, so its text
  // is compiled exactly as read: no copy. It is ASCII (scripts/bundle.mjs), so latin1 reads it exactly,
  // without UTF-8 decoding (~10 ms less for the host's on 2 shared cores).
  const script = new vm.Script(readFileSync(bundle, 'latin1'), { filename: bundle, cachedData });
  const state = !cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
  const usedBytes = state === 'used' ? cachedData.length : 0;
  // V8 has copied what it needs; the buffer (~1.4 MB for the host) would otherwise outlive start-up in
  // the old generation until a full collection that a short run never has.
  cachedData = undefined;
  read.release();
  if (process.env.GEMINI_MCP_DEBUG) process.stderr.write(`[bin-loader] ${basename(bundle)}: code cache ${state}\n`);
  // The build's warm-up run writes it whatever it found.
  if (state !== 'used' || process.env.GEMINI_MCP_CODE_CACHE === 'write') {
    process.once('exit', () => writeCache(script, cache, loadedSince(before)));
  } else if (thinCache(usedBytes, bundle)) {
    // A cache written by a run that did little (the first `--version` on a new Node, after another run's
    // flags made V8 reject the build's) holds little, and V8 accepts it from then on: every session after
    // it compiled the rest anew (~45 ms of the host's CPU in a 3-turn session). A run that did more
    // replaces it.
    process.once('exit', () => writeCache(script, cache, loadedSince(before), usedBytes * RICHER));
  }
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));
}

module.exports = runBundle;
// The cache's name and place, for the tests.
module.exports.cacheOf = cacheOf;
