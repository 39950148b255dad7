// Bundles each bin entry straight from its TypeScript source into dist/bin (tsc only type-checks, with
// --noEmit): a server then loads one file instead of ~250 modules, and V8's code cache for that file
// (dist/bin/cache, written here and refreshed by the loader) spares most of its parse and compile.
// `node scripts/bundle.mjs --metafile` also writes dist/bin/meta.json (esbuild's metafiles) for size
// analysis.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, buildSync } from 'esbuild';
import { ALIAS, EXTERNAL, lazyAjvProvider, patchGenai, zodEnglishOnly } from './bundle-plugins.mjs';
import { lazySdkSchemas } from './lazy-sdk-schemas.mjs';
import { warmCodeCaches } from './warm-code-cache.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist/bin');
const wantMeta = process.argv.includes('--metafile');

/** bin name → the source it is built from (package.json `bin` points at the bundles). */
export const BIN_SOURCES = {
  'gemini-mcp': 'host/main.ts',
  'gemini-mcp-filesystem': 'servers/filesystem/main.ts',
  'gemini-mcp-shell': 'servers/shell/main.ts',
  'gemini-mcp-web': 'servers/web/main.ts',
  'gemini-mcp-memory': 'servers/memory/main.ts',
  'gemini-mcp-discovery-bridge': 'discovery-bridge/main.ts',
};

/** How Node wraps a CommonJS module's text into a function (`require('node:module').wrapper`). */
const MODULE_WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

// Bundled CommonJS dependencies call require() for node built-ins; ESM output has no require. (The
// entries' own `#!/usr/bin/env node` line is kept by esbuild above this banner.)
const BANNER = [
  "import { createRequire as __gmcCreateRequire } from 'node:module';",
  'const require = __gmcCreateRequire(import.meta.url);',
].join('\n');

/**
 * Builds every bin as one CommonJS file, dist/bin/impl/<name>.cjs, run by a small loader
 * (scripts/bin-loader.cjs) through vm.Script so that V8's code cache can skip parsing and compiling
 * it: Node 20 has no code cache for ES modules. Lazily imported modules (the Gemini SDK, HTML
 * conversion, the HTTP transport) stay lazy inside the file: they are evaluated on first use, and
 * their functions are compiled only when they run.
 */
export async function bundleAll() {
  // Written in place (not emptied first): tests and servers of other builds may be starting from it.
  mkdirSync(join(OUT, 'impl'), { recursive: true });
  const metas = await Promise.all(Object.entries(BIN_SOURCES).map(([name, src]) => bundleBin(name, src)));
  if (wantMeta) writeFileSync(join(OUT, 'meta.json'), JSON.stringify(metas));
  // The ESM layout of earlier builds (impl/*.mjs and shared chunks) is gone.
  rmSync(join(OUT, 'chunks'), { recursive: true, force: true });
  for (const f of readdirSync(join(OUT, 'impl'))) {
    if (f.endsWith('.mjs') || f.endsWith('.mjs.map')) rmSync(join(OUT, 'impl', f), { force: true });
  }
  copyFileSync(join(ROOT, 'scripts/bin-loader.cjs'), join(OUT, 'impl/bin-loader.cjs'));
  mkdirSync(join(OUT, 'impl/loader'), { recursive: true });
  for (const f of readdirSync(join(ROOT, 'scripts/loader'))) {
    copyFileSync(join(ROOT, 'scripts/loader', f), join(OUT, 'impl/loader', f));
  }
  const files = Object.keys(BIN_SOURCES).map((name) => writeLoader(name));
  // The shebang alone does not make a file runnable.
  for (const f of files) chmodSync(f, 0o755);
  await warmCodeCaches(OUT, Object.keys(BIN_SOURCES));
  return files;
}

async function bundleBin(name, src) {
  const entry = join(ROOT, src);
  if (!existsSync(entry)) throw new Error(`${src} is missing`);
  const r = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile: join(OUT, 'impl', `${name}.cjs`),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    sourcemap: true,
    // The maps point back to the .ts files (node --enable-source-maps).
    sourcesContent: false,
    legalComments: 'none',
    external: EXTERNAL,
    alias: ALIAS,
    // Sources are ES modules: import.meta.url becomes the bundle file's own URL.
    define: { 'import.meta.url': '__gmcImportMetaUrl' },
    // A vm.Script has no module loader behind import(): the few a dependency makes (of node: built-ins)
    // become require() calls.
    supported: { 'dynamic-import': false },
    // The file is the CommonJS module wrapper already (scripts/bin-loader.cjs compiles it as written):
    // wrapping it at run time made V8 flatten a second copy of the whole source (~1.7 MB for the host).
    banner: { js: `${MODULE_WRAPPER[0]}var __gmcImportMetaUrl = require("node:url").pathToFileURL(__filename).href;` },
    footer: { js: MODULE_WRAPPER[1] },
    plugins: [zodEnglishOnly, lazyAjvProvider, patchGenai, lazySdkSchemas],
    metafile: wantMeta,
    logLevel: 'warning',
  });
  assertAscii(join(OUT, 'impl', `${name}.cjs`));
  return r.metafile;
}

/**
 * One non-ASCII character anywhere (esbuild leaves them in regular expression literals) makes V8 keep
 * the whole source as two bytes per character and the loader decode it as UTF-8: write `\u2026`, not `…`.
 */
function assertAscii(file) {
  const text = readFileSync(file, 'latin1');
  const at = text.search(/[^\x00-\x7f]/);
  if (at >= 0)
    throw new Error(`${file} has a non-ASCII character at ${at}: ${JSON.stringify(text.slice(at - 60, at + 20))}`);
}

/** Bins that never run WebAssembly (no fetch, no tree-sitter): the loader leaves V8's wasm tiers alone. */
const NO_WASM = new Set(['gemini-mcp-filesystem', 'gemini-mcp-memory']);

/**
 * The bin users run, `<name>.cjs` as package.json's bin names it, hands its bundle to the loader. It is
 * CommonJS because an ES module entry makes Node set up its ESM loader first: ~15 ms of CPU at every
 * start of every process (Node 20.20, 2 shared cores). `<name>.mjs` stays for configurations written
 * when the bins were ES modules (other MCP clients pointed at dist/bin/gemini-mcp-filesystem.mjs).
 */
function writeLoader(name) {
  const file = join(OUT, `${name}.cjs`);
  const opts = NO_WASM.has(name) ? ', { wasm: false }' : '';
  const text = [
    '#!/usr/bin/env node',
    "'use strict';",
    `require('./impl/bin-loader.cjs')(require('node:path').join(__dirname, 'impl/${name}.cjs')${opts});`,
    '',
  ].join('\n');
  writeFileSync(file, text);
  const legacy = join(OUT, `${name}.mjs`);
  writeFileSync(
    legacy,
    [
      '#!/usr/bin/env node',
      "import { createRequire } from 'node:module';",
      `createRequire(import.meta.url)('./${name}.cjs');`,
      '',
    ].join('\n'),
  );
  chmodSync(legacy, 0o755);
  return file;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundleAll();

/**
 * One TypeScript module bundled on its own into `outFile` (ESM, dependencies inlined): how tests and
 * benches run a source module in a plain `node` child process now that the build emits only the bins.
 */
export function bundleModule(entry, outFile) {
  buildSync({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    alias: ALIAS,
    banner: { js: BANNER },
    logLevel: 'warning',
  });
  return outFile;
}
