'use strict';
const { builtinModules, isBuiltin } = require('node:module');

// Node's own JavaScript modules (http, child_process, the streams, ...) are compiled from a code cache
// built into the node binary. V8 accepts a code cache only under the flags it was made with, and this
// loader changes V8's flags at run time (wasm-liftoff.cjs, turbofan-later.cjs, young-generation.cjs,
// old-generation.cjs): every built-in module a bundle requires after that is parsed and compiled from
// source instead. In the host that was ~40 ms of CPU before its first model request, against ~20 ms for
// a bare `node -e fetch()` that loads more of them.
//
// So the loader requires, before it sets its flags, the built-in modules that a run of the same bundle
// required, as recorded in the bundle's cache file (code-cache.cjs) when that run wrote it. Modules that
// Node loads lazily behind a public name are loaded through that name.
//
// Measured (Node 20.20, 2 shared cores, 11 interleaved headless runs, first model request): 5 servers
// 277 → 257 ms, 25 servers 296 → 271 ms, CPU to exit 297 → 278 ms.

/** Internal modules a run may load lazily, and the public property whose first read loads each. */
const LAZY = {
  'internal/fs/streams': () => require('node:fs').ReadStream,
  'internal/util/parse_args/parse_args': () => require('node:util').parseArgs,
  'internal/webstreams/readablestream': () => globalThis.ReadableStream,
};

/**
 * Public names never loaded directly: `_http_agent` and its kind come with their public module (which
 * the list holds too), and requiring a deprecated module prints a warning a run might otherwise not.
 */
const SKIP = (name) => name.startsWith('_') || name === 'punycode' || name === 'sys';

/** What this process has loaded so far, for `loadedSince`. */
function loadedNow() {
  return new Set(Array.isArray(process.moduleLoadList) ? process.moduleLoadList : []);
}

/** The built-in modules (public names, or keys of LAZY) loaded since `before`, in load order. */
function loadedSince(before) {
  const publicNames = new Set(builtinModules);
  const names = [];
  for (const entry of loadedNow()) {
    if (before.has(entry) || !entry.startsWith('NativeModule ')) continue;
    const name = entry.slice('NativeModule '.length);
    if ((publicNames.has(name) && !SKIP(name)) || Object.hasOwn(LAZY, name)) names.push(name);
  }
  return names;
}

/** Loads each recorded module; a name this Node does not know is skipped, as it costs only the cache. */
function loadBuiltins(names) {
  for (const name of names) {
    try {
      if (Object.hasOwn(LAZY, name)) LAZY[name]();
      else if (isBuiltin(name)) require(name);
    } catch {
      // a module the bundle will require again, and fail on there with its own error
    }
  }
}

module.exports = { loadBuiltins, loadedNow, loadedSince };
