// esbuild settings and plugins shared by the bin build and by test bundles: what stays external, the
// jsonc-parser alias, and the bundle-time patches of third-party code listed in docs/third-party-patches.md
// (each guarded by test/scripts/third-party-patches.unit.test.ts; the SDK schema rewrite has its own file,
// scripts/lazy-sdk-schemas.mjs).
//
// Measured gains below: bundles built with and without one plugin, run without a code cache (which
// shrinks every figure), Node 20.20 on 2 cores shared with other work (load ~9), median of 15 runs.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// Packages that must stay real files in node_modules:
// - web-tree-sitter / tree-sitter-bash load their .wasm relative to their own package;
// - blessed requires terminfo data and widgets dynamically by computed name;
// - @lydell/node-pty loads its native addon from its platform package;
// - @xterm/headless is loaded only for a command run in a terminal (and its `module` field names no file).
export const EXTERNAL = ['web-tree-sitter', 'tree-sitter-bash', 'blessed', '@lydell/node-pty', '@xterm/headless'];

// jsonc-parser's `main` is a UMD build whose internal require() calls esbuild cannot follow; its ESM
// build (the package's `module` field) bundles cleanly.
export const ALIAS = { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' };

/**
 * zod re-exports all of its ~40 error-message locales as `z.locales`; nothing here switches locale
 * (zod configures English itself), and they are a quarter of a server's bundle. Only `en` is kept.
 * Measured: the filesystem server's bundle 980 → 724 KB, its first tools/list 435 → 350 ms.
 */
export const zodEnglishOnly = {
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
 * Measured: the filesystem server's first tools/list 368 → 350 ms (same bundle size: Ajv is still in it).
 */
export const AJV_PROVIDER_ANCHORS = {
  file: 'node_modules/@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js',
  imports: "import Ajv from 'ajv';\nimport _addFormats from 'ajv-formats';\n",
  factory: 'function createDefaultAjvInstance() {\n',
};

export const lazyAjvProvider = {
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
 * Measured: the host's bundle 1712 → 1379 KB, a headless run's first model request 390 → 362 ms.
 */
export const GENAI_EAGER_IMPORTS = {
  file: 'node_modules/@google/genai/dist/node/index.mjs',
  auth: "import { GoogleAuth } from 'google-auth-library';\n",
  ws: "import * as NodeWs from 'ws';\n",
};

/**
 * @google/genai's model requests build their headers with `new Headers()` and re-wrap each streamed
 * chunk with `new Response(...)`; in Node either global loads all of undici (~55 ms of CPU) even though
 * the host sends the requests itself (host/core/model-fetch.ts). On that path they become the host's
 * light stand-ins (protocol/light-web.ts). Other uses of the globals (file uploads, the interactions
 * API) are untouched. Should the SDK change these lines, the patch is skipped and the build says so.
 * Measured: a headless 3-turn session, host CPU −55 ms; first model request, 5 servers, −50 ms.
 */
export const GENAI_LIGHT_WEB = {
  file: 'node_modules/@google/genai/dist/node/index.mjs',
  headers: '    async getHeadersInternal(httpOptions, url) {\n        const headers = new Headers();\n',
  chunk: 'const partialResponse = new Response(processedChunkString, {',
};
const LIGHT_WEB = fileURLToPath(new URL('../protocol/light-web.ts', import.meta.url));

/**
 * @google/genai converts every request through generic path helpers: each part of each content is
 * copied field by field, ~16 `getValueByPath(part, ['text'])` calls per part, each walking a one-key path
 * through a loop, an `endsWith('[]')` test and a try/catch. A resumed 10,000-record session spent ~40 ms
 * of CPU there before its first request. A one-key path that is neither `_self` nor an array path now
 * returns the property directly, exactly as the loop would (a non-object gives the default, and so does
 * a getter's TypeError). Should the SDK change the function's opening, it is left alone and the build
 * says so.
 */
export const GENAI_PATH_GET = {
  file: 'node_modules/@google/genai/dist/node/index.mjs',
  opening:
    "function getValueByPath(data, keys, defaultValue = undefined) {\n    try {\n        if (keys.length === 1 && keys[0] === '_self') {\n            return data;\n        }\n",
  fastPath: [
    '    if (keys.length === 1) {',
    '        const key = keys[0];',
    "        if (key !== '_self' && key.charCodeAt(key.length - 1) !== 93) {",
    "            if (typeof data !== 'object' || data === null) return defaultValue;",
    '            try { return data[key]; } catch (error) { if (error instanceof TypeError) return defaultValue; throw error; }',
    '        }',
    '    }',
    '',
  ].join('\n'),
};

/**
 * The same conversion passes every path as a fresh array literal, `getValueByPath(part, ['text'])`, so
 * converting a request allocates two arrays per field of every part: ~6 MB of garbage for a resumed
 * 10,000-record session, whose scavenges were most of its extra time before the first request. The
 * literals become constants made once (frozen: neither helper changes its `keys`, it copies with slice).
 */
export function hoistGenaiPathKeys(contents) {
  const names = new Map();
  const out = contents.replace(
    /\b(getValueByPath|setValueByPath)\((\w+),\s*\[\s*((?:'[^'\\\n]*'\s*,?\s*)+)\]/g,
    (_, fn, target, list) => {
      const keys = JSON.stringify([...list.matchAll(/'([^'\\\n]*)'/g)].map((m) => m[1]));
      let name = names.get(keys);
      if (!name) names.set(keys, (name = `__gmcPath${names.size}`));
      return `${fn}(${target}, ${name}`;
    },
  );
  if (!names.size) return undefined;
  const decls = [...names].map(([keys, name]) => `const ${name} = Object.freeze(${keys});`).join('\n');
  return `${decls}\n${out}`;
}

/**
 * A resumed session's first request carries its whole history, and @google/genai converts every content
 * into a new object, every parts array into a new array and every part into a new object, field by
 * field, only to serialise them at once: for 10,000 contents ~20 ms of CPU, and a third copy of the
 * history that lives until the request is written (its scavenges copy it twice more). Most parts are
 * already what the conversion makes: plain objects whose fields it copies as they are (text, thought,
 * thoughtSignature, functionResponse, inlineData, ...), in its order, none of them null. A content whose
 * parts are all like that is answered with `{ parts, role }` holding its own parts array, which serialises
 * to the same JSON; any other content (a function call, whose conversion checks its fields; an unknown
 * field, which the conversion drops) is converted as before. The fields and their order are read from
 * the SDK's own `partToMldev$1` at build time; should it or `contentToMldev$1` change shape, nothing is
 * patched and the build says so. (The Vertex AI conversion is left alone.)
 */
export const GENAI_PLAIN_CONTENT = {
  file: 'node_modules/@google/genai/dist/node/index.mjs',
  content: [
    'function contentToMldev$1(fromObject, rootObject) {',
    '    const toObject = {};',
    "    const fromParts = getValueByPath(fromObject, ['parts']);",
    '    if (fromParts != null) {',
    '        let transformedList = fromParts;',
    '        if (Array.isArray(transformedList)) {',
    '            transformedList = transformedList.map((item) => {',
    '                return partToMldev$1(item);',
    '            });',
    '        }',
    "        setValueByPath(toObject, ['parts'], transformedList);",
    '    }',
    "    const fromRole = getValueByPath(fromObject, ['role']);",
    '    if (fromRole != null) {',
    "        setValueByPath(toObject, ['role'], fromRole);",
    '    }',
    '    return toObject;',
    '}',
    '',
  ].join('\n'),
  partOpening: 'function partToMldev$1(fromObject, rootObject) {\n    const toObject = {};\n',
  partClosing: '    return toObject;\n}\n',
};

/** One statement of `partToMldev$1`: a field copied as it is, converted, or refused (`!== undefined` → throw). */
const PART_FIELD = [
  /^ {4}const (from\w+) = getValueByPath\(fromObject, \[\s*'(\w+)',?\s*\]\);\n {4}if \(\1 != null\) \{\n {8}setValueByPath\(toObject, \['(\w+)'\], ([\w$]+\()?\1\)?\);\n {4}\}\n/,
  /^ {4}if \(getValueByPath\(fromObject, \[\s*'(\w+)',?\s*\]\) !== undefined\) \{\n {8}throw new Error\('[^'\n]*'\);\n {4}\}\n/,
];

/**
 * The fields `partToMldev$1` copies unchanged, in its order, or undefined when its body is anything but
 * a run of field statements (then a fast path could miss what it does).
 */
export function plainPartFields(contents) {
  const { partOpening, partClosing } = GENAI_PLAIN_CONTENT;
  const start = contents.indexOf(partOpening);
  if (start < 0 || contents.indexOf(partOpening, start + 1) >= 0) return undefined;
  let body = contents.slice(start + partOpening.length, contents.indexOf(`\n${partClosing}`, start) + 1);
  const fields = [];
  while (body) {
    const copy = PART_FIELD[0].exec(body);
    const refused = copy ? undefined : PART_FIELD[1].exec(body);
    if (!copy && !refused) return undefined;
    // Copied as it is: read and written under the same one-key path, with no converter around it.
    if (copy && copy[2] === copy[3] && !copy[4]) fields.push(copy[2]);
    body = body.slice((copy ?? refused)[0].length);
  }
  return fields.length ? fields : undefined;
}

/** `contentToMldev$1` with the fast path for contents of plain parts (GENAI_PLAIN_CONTENT), or undefined. */
export function genaiPlainContents(contents) {
  const { content } = GENAI_PLAIN_CONTENT;
  const fields = plainPartFields(contents);
  const at = contents.indexOf(content);
  if (!fields || at < 0 || contents.indexOf(content, at + 1) >= 0) return undefined;
  const opening = content.slice(0, content.indexOf('\n') + 1);
  const fastPath = [
    `const __gmcPlainFields = new Map(${JSON.stringify(fields.map((f, i) => [f, i]))});`,
    '/** Whether the conversion would copy this part field for field, in the order it already has. */',
    'function __gmcPlainPart(p) {',
    "    if (typeof p !== 'object' || p === null || Object.getPrototypeOf(p) !== Object.prototype) return false;",
    '    let last = -1;',
    '    for (const key in p) {',
    '        const i = __gmcPlainFields.get(key);',
    '        if (i === undefined || i <= last || p[key] == null) return false;',
    '        last = i;',
    '    }',
    '    return true;',
    '}',
    opening.trimEnd(),
    "    if (typeof fromObject === 'object' && fromObject !== null && Array.isArray(fromObject.parts) && fromObject.parts.every(__gmcPlainPart)) {",
    '        const toObject = { parts: fromObject.parts };',
    '        if (fromObject.role != null) toObject.role = fromObject.role;',
    '        return toObject;',
    '    }',
    '',
  ].join('\n');
  return `${contents.slice(0, at)}${fastPath}${content.slice(opening.length)}${contents.slice(at + content.length)}`;
}

/**
 * The host and the web server call only `models` (host/core/content-generator.ts, servers/web/model.ts),
 * yet the GoogleGenAI constructor builds every service (Live, batches, caches, files, tunings, ...) and the
 * class reaches the Gemini "next gen" clients (interactions, agents, webhooks, ...) through getters, so the
 * bundles carried all of them: a tenth of the host's, read, deserialised and evaluated at every start. The class keeps its constructor's
 * opening as written and builds `models` only; the other names become getters that throw, saying why, so
 * that a future use fails loudly instead of reading undefined. Should the SDK change the class's opening,
 * its constructor's opening or the list of services, the class is bundled unchanged and the build says so.
 * Measured: the host's bundle 1,700,913 → 1,538,682 bytes, code cache 1.54 → 1.47 MB; first model request
 * (5 servers, 21 interleaved runs) median 252 → 246 ms, mean 270.9 → 263.3 ms, CPU mean 294 → 286 ms; the
 * 3-turn session (11 runs) exit 551 → 543 ms, tree CPU 591 → 575 ms.
 */
export const GENAI_MODELS_ONLY = {
  file: 'node_modules/@google/genai/dist/node/index.mjs',
  classOpening: 'class GoogleGenAI {\n    getNextGenClient() {\n',
  constructorOpening:
    '    constructor(options = {}) {\n        var _a, _b, _c, _d;\n        this.vertexai = resolveCloudFlag(options);\n',
  services: [
    '        this.models = new Models(this.apiClient);',
    '        this.live = new Live(this.apiClient, auth, new NodeWebSocketFactory());',
    '        this.batches = new Batches(this.apiClient);',
    '        this.chats = new Chats(this.models, this.apiClient);',
    '        this.caches = new Caches(this.apiClient);',
    '        this.files = new NodeFiles(this.apiClient);',
    '        this.operations = new Operations(this.apiClient);',
    '        this.authTokens = new Tokens(this.apiClient);',
    '        this.tunings = new Tunings(this.apiClient);',
    '        this.fileSearchStores = new FileSearchStores(this.apiClient);',
    '    }',
    '}',
    '',
  ].join('\n'),
  /** What is left out: the services built above and the class's next-gen getters. */
  dropped: [
    'live',
    'batches',
    'chats',
    'caches',
    'files',
    'operations',
    'authTokens',
    'tunings',
    'fileSearchStores',
    'interactions',
    'webhooks',
    'agents',
    'triggers',
    'environments',
    'credentials',
    'voices',
  ],
};

/** GoogleGenAI with `models` only (GENAI_MODELS_ONLY), or undefined when the SDK's text no longer matches. */
export function genaiModelsOnly(contents) {
  const { classOpening, constructorOpening, services, dropped } = GENAI_MODELS_ONLY;
  const start = contents.indexOf(classOpening);
  const ctor = contents.indexOf(constructorOpening, start);
  const end = contents.indexOf(services, ctor);
  if (start < 0 || ctor < 0 || end < 0) return undefined;
  // Everything before the constructor is dropped: it must be getNextGenClient and the listed getters only.
  const members = [...contents.slice(start, ctor).matchAll(/^ {4}(?:get )?(\w+)\(/gm)].map((m) => m[1]);
  if (members.some((m) => m !== 'getNextGenClient' && !dropped.includes(m))) return undefined;
  const refuse = dropped
    .map((name) => `    get ${name}() {\n        throw new Error(${JSON.stringify(notBundled(name))});\n    }\n`)
    .join('');
  return `${contents.slice(0, start)}class GoogleGenAI {\n${refuse}${contents.slice(ctor, end)}${services.split('\n')[0]}\n    }\n}\n${contents.slice(end + services.length)}`;
}

const notBundled = (name) =>
  `GoogleGenAI.${name} is not in gemini-mcp's bundle, which keeps only models (GENAI_MODELS_ONLY in scripts/bundle-plugins.mjs)`;

/** The patches of @google/genai's Node entry: one onLoad, since esbuild runs only the first that answers. */
export const patchGenai = {
  name: 'patch-genai',
  setup(b) {
    b.onLoad({ filter: /[\\/]@google[\\/]genai[\\/]dist[\\/]node[\\/]index\.mjs$/ }, (args) => {
      const warnings = [];
      let contents = readFileSync(args.path, 'utf8');
      const { auth, ws } = GENAI_EAGER_IMPORTS;
      if (contents.includes(auth) && contents.includes(ws)) {
        contents = contents
          .replace(
            auth,
            "const __lazyRequire = (name) => require(name);\nfunction GoogleAuth(options) { const Real = __lazyRequire('google-auth-library').GoogleAuth; return new Real(options); }\n",
          )
          .replace(ws, "const NodeWs = { get WebSocket() { return __lazyRequire('ws').WebSocket; } };\n");
      } else warnings.push({ text: '@google/genai changed: its auth stack stays eagerly loaded' });
      const { headers, chunk } = GENAI_LIGHT_WEB;
      if (contents.includes(headers) && contents.includes(chunk)) {
        contents = `import { LightHeaders as __GmcHeaders, LightResponse as __GmcResponse } from ${JSON.stringify(LIGHT_WEB)};\n${contents
          .replace(headers, headers.replace('new Headers()', 'new __GmcHeaders()'))
          .replace(chunk, chunk.replace('new Response(', 'new __GmcResponse('))}`;
      } else warnings.push({ text: '@google/genai changed: its requests load undici again' });
      const { opening, fastPath } = GENAI_PATH_GET;
      if (contents.includes(opening)) {
        const head = opening.slice(0, opening.indexOf('\n') + 1);
        contents = contents.replace(opening, `${head}${fastPath}${opening.slice(head.length)}`);
      } else warnings.push({ text: '@google/genai changed: its request conversion keeps the generic path walk' });
      // Before the paths are hoisted: it reads the conversion's literal paths.
      const plain = genaiPlainContents(contents);
      if (plain) contents = plain;
      else warnings.push({ text: '@google/genai changed: every content of a request is copied again' });
      const hoisted = hoistGenaiPathKeys(contents);
      if (hoisted) contents = hoisted;
      else warnings.push({ text: '@google/genai changed: its request conversion allocates its paths again' });
      const slim = genaiModelsOnly(contents);
      if (slim) contents = slim;
      else warnings.push({ text: '@google/genai changed: GoogleGenAI keeps all its services in the bundle' });
      return { contents, loader: 'js', resolveDir: dirname(args.path), warnings };
    });
  },
};
