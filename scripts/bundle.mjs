// Bundles each bin entry straight from its TypeScript source into dist/bin/<bin-name>.mjs (tsc only
// type-checks, with --noEmit): a server then loads a few files instead of ~250 modules, which roughly
// halves its spawn → initialize time and trims its idle memory. `node scripts/bundle.mjs --metafile`
// also writes dist/bin/meta.json (esbuild's metafile) for size analysis.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist/bin');
const wantMeta = process.argv.includes('--metafile');

/** bin name → the source it is built from (package.json `bin` points at the bundles). */
export const BIN_SOURCES = {
  'gemini-mcp': 'host/cli/main.ts',
  'gemini-mcp-filesystem': 'servers/filesystem/main.ts',
  'gemini-mcp-shell': 'servers/shell/main.ts',
  'gemini-mcp-web': 'servers/web/main.ts',
  'gemini-mcp-memory': 'servers/memory/main.ts',
  'gemini-mcp-discovery-bridge': 'discovery-bridge/main.ts',
};

// Packages that must stay real files in node_modules:
// - web-tree-sitter / tree-sitter-bash load their .wasm relative to their own package;
// - blessed requires terminfo data and widgets dynamically by computed name.
const EXTERNAL = ['web-tree-sitter', 'tree-sitter-bash', 'blessed'];

// jsonc-parser's `main` is a UMD build whose internal require() calls esbuild cannot follow; its ESM
// build (the package's `module` field) bundles cleanly.
const ALIAS = { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' };

// Bundled CommonJS dependencies call require() for node built-ins; ESM output has no require. (The
// entries' own `#!/usr/bin/env node` line is kept by esbuild above this banner.)
const BANNER = [
  "import { createRequire as __gmcCreateRequire } from 'node:module';",
  'const require = __gmcCreateRequire(import.meta.url);',
].join('\n');

/**
 * zod re-exports all of its ~40 error-message locales as `z.locales`; nothing here switches locale
 * (zod configures English itself), and they are a quarter of a server's bundle. Only `en` is kept.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * The SDK's Ajv provider imports Ajv at the top, so every process evaluates all of Ajv (~10 ms) at
 * start. Our servers never build the default provider (servers/common/create-server.ts passes one that
 * is created on first use, and only form elicitation would use it), so the imports move into its
 * factory as require() calls, which esbuild still bundles but runs only when a provider is built.
 * Should a future SDK change the file, it is bundled unchanged and the build says so.
 */
export const AJV_PROVIDER_ANCHORS = {
  file: 'node_modules/@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js',
  imports: "import Ajv from 'ajv';\nimport _addFormats from 'ajv-formats';\n",
  factory: 'function createDefaultAjvInstance() {\n',
};

const lazyAjvProvider = {
  name: 'lazy-ajv-provider',
  setup(b) {
    b.onLoad(
      { filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/ },
      (args) => {
        const src = readFileSync(args.path, 'utf8');
        const { imports, factory } = AJV_PROVIDER_ANCHORS;
        if (!src.includes(imports) || !src.includes(factory)) {
          return {
            contents: src,
            loader: 'js',
            warnings: [{ text: 'ajv-provider.js changed: Ajv stays eagerly loaded' }],
          };
        }
        const contents = src
          .replace(imports, '')
          .replace(
            factory,
            `${factory}    const Ajv = require('ajv');\n    const _addFormats = require('ajv-formats');\n`,
          );
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      },
    );
  },
};

/**
 * @google/genai's Node entry imports google-auth-library (with gaxios, node-fetch and friends) and ws at
 * the top, so every host start parses and evaluates them, though only Vertex AI without an API key
 * uses the auth library and only the Live API uses ws. Both become require() calls at their point of
 * use, by a name esbuild does not follow: they load from node_modules then, and never otherwise.
 * Should a future SDK change these lines, it is bundled unchanged and the build says so.
 */
export const GENAI_EAGER_IMPORTS = {
  file: 'node_modules/@google/genai/dist/node/index.mjs',
  auth: "import { GoogleAuth } from 'google-auth-library';\n",
  ws: "import * as NodeWs from 'ws';\n",
};

const lazyGenaiAuth = {
  name: 'lazy-genai-auth',
  setup(b) {
    b.onLoad({ filter: /[\\/]@google[\\/]genai[\\/]dist[\\/]node[\\/]index\.mjs$/ }, (args) => {
      const src = readFileSync(args.path, 'utf8');
      const { auth, ws } = GENAI_EAGER_IMPORTS;
      if (!src.includes(auth) || !src.includes(ws)) {
        return {
          contents: src,
          loader: 'js',
          warnings: [{ text: '@google/genai changed: its auth stack stays eagerly loaded' }],
        };
      }
      const contents = src
        .replace(
          auth,
          "const __lazyRequire = (name) => require(name);\nfunction GoogleAuth(options) { const Real = __lazyRequire('google-auth-library').GoogleAuth; return new Real(options); }\n",
        )
        .replace(ws, "const NodeWs = { get WebSocket() { return __lazyRequire('ws').WebSocket; } };\n");
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** Builds all bins in one pass: code they share (SDK, zod) and lazily imported modules go to chunks. */
export async function bundleAll() {
  // Written in place (not emptied first): tests and servers of other builds may be starting from it.
  mkdirSync(OUT, { recursive: true });
  const entryPoints = {};
  for (const [name, src] of Object.entries(BIN_SOURCES)) {
    const entry = join(ROOT, src);
    if (!existsSync(entry)) throw new Error(`${src} is missing`);
    entryPoints[name] = entry;
  }
  const r = await build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: OUT,
    // The bins users run are the small loaders written below; the bundles sit one level down.
    entryNames: 'impl/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Splitting keeps what only some tools need (the Gemini SDK, HTML conversion, the HTTP transport,
    // fast-glob) out of the startup path: dynamic import() targets become chunks loaded on first use.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    sourcemap: true,
    // The maps point back to the .ts files (node --enable-source-maps).
    sourcesContent: false,
    legalComments: 'none',
    external: EXTERNAL,
    alias: ALIAS,
    banner: { js: BANNER },
    plugins: [zodEnglishOnly, lazyAjvProvider, lazyGenaiAuth],
    metafile: true,
    logLevel: 'warning',
  });
  if (wantMeta) writeFileSync(join(OUT, 'meta.json'), JSON.stringify(r.metafile));
  // Chunk names carry a content hash: drop the ones this build no longer refers to.
  const written = new Set(Object.keys(r.metafile.outputs).map((f) => resolve(ROOT, f)));
  const chunks = join(OUT, 'chunks');
  for (const f of existsSync(chunks) ? readdirSync(chunks) : []) {
    if (!written.has(join(chunks, f))) rmSync(join(chunks, f), { force: true });
  }
  const files = Object.keys(entryPoints).map((name) => writeLoader(name));
  // The shebang alone does not make a file runnable.
  for (const f of files) chmodSync(f, 0o755);
  return files;
}

/**
 * A bin's loader turns on Node's on-disk V8 code cache before the bundle and its chunks are compiled
 * (every static import of an ES module is compiled before any of its code runs, so the bundle itself
 * could not). Node 22.1+ keeps the cache in the OS temp dir and discards entries whose source or V8
 * version changed; Node 20 has no enableCompileCache, and the loader just imports the bundle.
 */
function writeLoader(name) {
  const file = join(OUT, `${name}.mjs`);
  const text = [
    '#!/usr/bin/env node',
    "import module from 'node:module';",
    'try {',
    '  module.enableCompileCache?.();',
    '} catch {',
    '  // an unusable cache directory only costs the cache',
    '}',
    `await import('./impl/${name}.mjs');`,
    '',
  ].join('\n');
  writeFileSync(file, text);
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
