import type { FunctionDeclaration } from '@google/genai';

/** Parameters only the host sets: hidden from the model. */
export const HOST_ONLY_PARAMS = ['modified_by_user'];
const MAX_SCHEMA_DEPTH = 64;

type Json = Record<string, unknown>;

/**
 * The declaration Gemini gets: `parametersJsonSchema` passes the server's JSON Schema almost untouched.
 * Only `$schema` goes (rejected by the API) and host-only parameters are hidden.
 */
export function toDeclaration(name: string, description: string, inputSchema: Json): FunctionDeclaration {
  return { name, description, parametersJsonSchema: rewriteSchema(inputSchema) };
}

export function rewriteSchema(schema: Json): Json {
  const out = stripSchemaKeyword(structuredClone(schema)) as Json;
  if (out.type === undefined) out.type = 'object';
  const props = out.properties as Json | undefined;
  if (props && typeof props === 'object') {
    for (const p of HOST_ONLY_PARAMS) delete props[p];
    if (Array.isArray(out.required))
      out.required = (out.required as unknown[]).filter((r) => !HOST_ONLY_PARAMS.includes(r as string));
  }
  return out;
}

function stripSchemaKeyword(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripSchemaKeyword);
  if (v && typeof v === 'object') {
    const o = v as Json;
    delete o.$schema;
    for (const k of Object.keys(o)) o[k] = stripSchemaKeyword(o[k]);
  }
  return v;
}

/**
 * Why a schema would make the API refuse every request (too deep, or a `$ref` cycle), or undefined.
 * Such a tool is left out rather than breaking the whole session.
 */
export function schemaProblem(schema: Json): string | undefined {
  if (depthOf(schema, 0) > MAX_SCHEMA_DEPTH) return `schema nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
  const defs: Record<string, unknown> = {
    ...(schema.definitions as Json | undefined),
    ...(schema.$defs as Json | undefined),
  };
  const refsOf = (node: unknown, acc: Set<string>): Set<string> => {
    if (Array.isArray(node)) {
      for (const n of node) refsOf(n, acc);
    } else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') {
          const m = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(v);
          if (m) acc.add(m[1]!);
          else if (v === '#') acc.add('#');
        } else refsOf(v, acc);
      }
    }
    return acc;
  };
  if (refsOf(schema, new Set()).has('#')) return 'schema refers to itself ($ref "#")';
  const visiting = new Set<string>();
  const done = new Set<string>();
  const cyclic = (name: string): boolean => {
    if (done.has(name)) return false;
    if (visiting.has(name)) return true;
    visiting.add(name);
    for (const r of refsOf(defs[name], new Set())) if (r in defs && cyclic(r)) return true;
    visiting.delete(name);
    done.add(name);
    return false;
  };
  for (const name of Object.keys(defs)) if (cyclic(name)) return `recursive schema ($ref cycle through "${name}")`;
  return undefined;
}

function depthOf(v: unknown, d: number): number {
  if (d > MAX_SCHEMA_DEPTH) return d;
  if (!v || typeof v !== 'object') return d;
  let max = d;
  for (const c of Object.values(v)) max = Math.max(max, depthOf(c, d + 1));
  return max;
}
