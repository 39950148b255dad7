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
  return checkedDeclaration(name, description, inputSchema).declaration;
}

interface SchemaFacts {
  depth: number;
  hasRef: boolean;
}

/**
 * The schema as the API gets it, and what schemaProblem needs to know about it, in one walk: a copy
 * without `$schema` (the API rejects it) and without host-only parameters, its depth and whether it holds
 * any `$ref`. A registry of many servers does this for every tool at start-up (140 tools with 25
 * servers): a clone and three walks per tool were ~10 ms of a headless run's first request.
 */
function copySchema(schema: Json): { copy: Json; facts: SchemaFacts } {
  const facts: SchemaFacts = { depth: 0, hasRef: false };
  const out = copyNode(schema, 0, facts) as Json;
  if (out.type === undefined) out.type = 'object';
  const props = out.properties as Json | undefined;
  if (props && typeof props === 'object') {
    for (const p of HOST_ONLY_PARAMS) delete props[p];
    if (Array.isArray(out.required))
      out.required = (out.required as unknown[]).filter((r) => !HOST_ONLY_PARAMS.includes(r as string));
  }
  return { copy: out, facts };
}

function copyNode(v: unknown, depth: number, facts: SchemaFacts): unknown {
  if (depth > facts.depth) facts.depth = depth;
  // Deeper than the API takes: the tool is left out (schemaProblem), so the rest need not be copied.
  if (!v || typeof v !== 'object' || depth > MAX_SCHEMA_DEPTH) return v;
  if (Array.isArray(v)) return v.map((c) => copyNode(c, depth + 1, facts));
  const out: Json = {};
  const obj = v as Json;
  // for-in rather than Object.entries: no [key, value] array per property, which for every schema of
  // 100 servers' tools was ~1.5 MB of a start's allocation. A JSON object has no inherited keys, but an
  // object built in code may.
  for (const k in obj) {
    if (!Object.hasOwn(obj, k)) continue;
    const c = obj[k];
    if (k === '$schema') continue;
    if (k === '$ref') facts.hasRef = true;
    // A JSON `__proto__` key is data: assigning it would set the copy's prototype instead.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: copyNode(c, depth + 1, facts), enumerable: true, writable: true });
    else out[k] = copyNode(c, depth + 1, facts);
  }
  return out;
}

/** The declaration and, when the API would refuse it, why (see schemaProblem); one walk of the schema. */
export function checkedDeclaration(
  name: string,
  description: string,
  inputSchema: Json,
): { declaration: FunctionDeclaration; problem?: string } {
  const { copy, facts } = copySchema(inputSchema);
  const declaration = { name, description, parametersJsonSchema: copy };
  const problem = facts.depth > MAX_SCHEMA_DEPTH ? tooDeep() : facts.hasRef ? refProblem(inputSchema) : undefined;
  return problem ? { declaration, problem } : { declaration };
}

const tooDeep = () => `schema nested deeper than ${MAX_SCHEMA_DEPTH} levels`;

/**
 * Why a schema would make the API refuse every request (too deep, or a `$ref` cycle), or undefined.
 * Such a tool is left out rather than breaking the whole session.
 */
export function schemaProblem(schema: Json): string | undefined {
  return checkedDeclaration('', '', schema).problem;
}

/** A `$ref` to the whole schema, or a cycle of `$ref`s through its definitions. */
function refProblem(schema: Json): string | undefined {
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
