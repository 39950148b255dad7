// The MCP SDK's types module builds ~170 zod schemas when it is evaluated, in every process that speaks
// MCP (the host and each server), though a process parses with a dozen of them. This build-time
// transform turns each top-level `const` of that module into a schema built on first read; the rest of
// the module (the ErrorCode enum, McpError, plain functions) runs as before. See lazySdkSchemas below
// and docs/third-party-patches.md.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse } from 'acorn';

export const SDK_TYPES_FILE = 'node_modules/@modelcontextprotocol/sdk/dist/esm/types.js';

/** Top-level names an AST node refers to (an over-approximation: shadowing is ignored). */
function referencedNames(node, topLevel, out = new Set()) {
  if (!node || typeof node.type !== 'string') return out;
  if (node.type === 'Identifier' && topLevel.has(node.name)) out.add(node.name);
  for (const [key, value] of Object.entries(node)) {
    // `a.B` and `{ B: … }` name a property, not the binding B (a shorthand `{ B }` does refer to it).
    if (key === 'property' && node.type === 'MemberExpression' && !node.computed) continue;
    if (key === 'key' && node.type === 'Property' && !node.computed && !node.shorthand) continue;
    if (Array.isArray(value)) for (const v of value) referencedNames(v, topLevel, out);
    else if (value && typeof value === 'object') referencedNames(value, topLevel, out);
  }
  return out;
}

/** A `const` whose every declarator binds a plain name to a value: it can become lazy. */
const isLazyConst = (decl) =>
  decl?.type === 'VariableDeclaration' &&
  decl.kind === 'const' &&
  decl.declarations.every((d) => d.id.type === 'Identifier' && d.init);

/**
 * Rewrites the SDK's types module (an ES module importing only zod) as a CommonJS module whose consts
 * are getters: a bundler then reads each through the exports object at its point of use, so nothing is
 * built until something reads it. `zodModule` is what the rewritten module requires for zod: a module
 * that exports at least the names zodNamesUsed finds. Returns undefined for a module shaped otherwise.
 */
export function makeSchemasLazy(source, zodModule) {
  const program = parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  const text = (n) => source.slice(n.start, n.end);
  const lazy = new Map(); // name → init expression node
  const exported = new Set();
  for (const stmt of program.body) {
    const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
    if (stmt.type === 'ExportNamedDeclaration' && (!decl || stmt.source)) return undefined;
    if (stmt.type === 'ImportDeclaration' || stmt.type === 'ExportDefaultDeclaration') continue;
    if (stmt.type === 'ExportAllDeclaration') return undefined;
    const names =
      decl.type === 'VariableDeclaration' ? decl.declarations.map((d) => d.id.name) : decl.id ? [decl.id.name] : [];
    if (isLazyConst(decl)) for (const d of decl.declarations) lazy.set(d.id.name, d.init);
    if (stmt.type === 'ExportNamedDeclaration') for (const n of names) exported.add(n);
  }
  const imports = program.body.filter((s) => s.type === 'ImportDeclaration');
  const onlyZod =
    imports.length === 1 &&
    imports[0].source.value === 'zod/v4' &&
    imports[0].specifiers.length === 1 &&
    imports[0].specifiers[0].type === 'ImportNamespaceSpecifier';
  if (!onlyZod || program.body.some((s) => s.type === 'ExportDefaultDeclaration')) return undefined;
  const z = imports[0].specifiers[0].local.name;
  const lazyNames = new Set(lazy.keys());
  const ensure = (node) => [...referencedNames(node, lazyNames)].map((n) => `$${n}();`).join(' ');
  const out = ["'use strict';", `const ${z} = require(${JSON.stringify(zodModule)});`];
  for (const stmt of program.body) {
    if (stmt.type === 'ImportDeclaration') continue;
    const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
    if (isLazyConst(decl)) {
      for (const d of decl.declarations) {
        const n = d.id.name;
        // 0: not built, 1: building (a cycle through a function body reads it later), 2: built.
        out.push(
          `let ${n}, ${n}$ = 0;`,
          `function $${n}() { if (${n}$ === 0) { ${n}$ = 1; ${ensure(d.init)} ${n} = (${text(d.init)}); ${n}$ = 2; } return ${n}; }`,
        );
      }
    } else {
      // Code that runs now (a class, the enum's IIFE) first builds whatever lazy value it names.
      out.push(ensure(decl), text(decl));
    }
  }
  for (const n of exported) {
    const get = lazy.has(n) ? `$${n}` : `() => ${n}`;
    out.push(`Object.defineProperty(exports, ${JSON.stringify(n)}, { enumerable: true, get: ${get} });`);
  }
  return out.filter(Boolean).join('\n');
}

/** The names the module reads from its zod namespace (`z.object`, `z.iso`, …). */
export function zodNamesUsed(source) {
  const local = /import\s*\*\s*as\s+([\w$]+)\s+from\s*['"]zod\/v4['"]/.exec(source)?.[1];
  if (!local) return [];
  const names = new Set();
  const escaped = local.replace(/\$/g, '\\$');
  for (const m of source.matchAll(new RegExp(`(?<![\\w$])${escaped}\\s*\\.\\s*([A-Za-z_$][\\w$]*)`, 'g')))
    names.add(m[1]);
  return [...names].sort();
}

const NAMESPACE = 'gmc-lazy-sdk-types';
const SDK_TYPES = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/;
const ZOD = `${NAMESPACE}:zod`;

/**
 * The SDK's package.json marks its files as ES modules, and esbuild keeps that for any file loaded from
 * there: the module is resolved into a namespace of its own, where the rewritten code is CommonJS. It
 * gets zod from an ES module beside it that re-exports by name only what the module uses (18 names): a
 * require() of zod itself (its ES build: its CommonJS build would be a second copy of zod) would copy all
 * ~300 exports into a CommonJS view, and re-exporting zod's `z` made the bundle build that namespace
 * object and the ones it holds (core, util, regexes: ~900 getters) at every start, even in processes that
 * never load the SDK. Should a future SDK reshape the module (another import, re-exports), it is bundled
 * unchanged and the build says so.
 */
export const lazySdkSchemas = {
  name: 'lazy-sdk-schemas',
  setup(b) {
    const again = { lazySdkSchemas: true };
    b.onResolve({ filter: /(^|[\\/])types\.js$/ }, async (args) => {
      if (args.pluginData === again) return undefined;
      const { path, errors } = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: again,
      });
      return errors.length === 0 && SDK_TYPES.test(path) ? { path, namespace: NAMESPACE } : undefined;
    });
    b.onResolve({ filter: new RegExp(`^${ZOD}$`) }, (args) => ({ path: `${args.importer}#zod`, namespace: NAMESPACE }));
    b.onLoad({ filter: /#zod$/, namespace: NAMESPACE }, async (args) => {
      const types = args.path.slice(0, -'#zod'.length);
      // A name zod does not export (read from a comment, say) would fail the build; the original would
      // read undefined for it just the same.
      const zod = await import('zod/v4');
      const names = zodNamesUsed(readFileSync(types, 'utf8')).filter((n) => n in zod);
      return {
        contents: `export { ${names.join(', ')} } from 'zod/v4';\n`,
        loader: 'js',
        resolveDir: dirname(types),
      };
    });
    b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const contents = makeSchemasLazy(source, ZOD);
      if (contents !== undefined) return { contents, loader: 'js', resolveDir: dirname(args.path) };
      return {
        contents: source,
        loader: 'js',
        resolveDir: dirname(args.path),
        warnings: [{ text: 'the SDK types module changed: its schemas stay eager' }],
      };
    });
  },
};
