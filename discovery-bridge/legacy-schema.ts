/**
 * Converts a legacy `parameters` schema (the OpenAPI subset of the Gemini `Schema` type: upper-case
 * `type`, `nullable`, int64 bounds sent as strings, `example`, `propertyOrdering`) into JSON Schema, so
 * old discovery scripts keep their parameters instead of losing them (an extension of the discovery
 * protocol, which only names `parametersJsonSchema`). Keys it does not know are JSON-Schema-compatible already and pass through; sub-schemas
 * are converted recursively.
 */
export type JsonSchema = Record<string, unknown>;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
/** Gemini sends these int64 fields as decimal strings in proto JSON. */
const INT_KEYS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);
const NUM_KEYS = new Set(['minimum', 'maximum']);
const SCHEMA_MAP_KEYS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);
const SCHEMA_LIST_KEYS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_KEYS = new Set(['items', 'not', 'additionalProperties', 'additionalItems', 'contains']);
/** Gemini-only keys without a JSON Schema meaning. */
const DROPPED = new Set(['propertyOrdering', 'nullable', 'example']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function legacyToJsonSchema(schema: unknown): JsonSchema {
  if (!isObject(schema)) return {};
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (key === 'type') {
      const type = convertType(value);
      if (type !== undefined) out.type = type;
    } else if (key === 'format' && value === 'enum') {
      // Gemini marks string enums with format "enum"; JSON Schema has `enum` for that.
    } else if (INT_KEYS.has(key) || NUM_KEYS.has(key)) {
      out[key] = toNumber(value, INT_KEYS.has(key));
    } else if (SCHEMA_MAP_KEYS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, legacyToJsonSchema(v)]));
    } else if (SCHEMA_LIST_KEYS.has(key) && Array.isArray(value)) {
      out[key] = value.map(legacyToJsonSchema);
    } else if (SCHEMA_KEYS.has(key) && isObject(value)) {
      out[key] = legacyToJsonSchema(value);
    } else {
      out[key] = value;
    }
  }
  if ('example' in schema && !('examples' in out)) out.examples = [schema.example];
  if (schema.nullable === true) makeNullable(out);
  return out;
}

function convertType(value: unknown): string | string[] | undefined {
  const one = (v: unknown) => {
    if (typeof v !== 'string') return undefined;
    const lower = v.toLowerCase();
    return TYPES.has(lower) ? lower : undefined; // TYPE_UNSPECIFIED and unknown names mean "any"
  };
  if (Array.isArray(value)) {
    const list = value.map(one).filter((t): t is string => t !== undefined);
    return list.length ? list : undefined;
  }
  return one(value);
}

function toNumber(value: unknown, integer: boolean): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const n = Number(value);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) return value;
  return n;
}

/** `nullable: true` becomes a `null` member of the type (and of `enum`, which would exclude it). */
function makeNullable(out: JsonSchema): void {
  if (typeof out.type === 'string') out.type = out.type === 'null' ? 'null' : [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  else if (out.type === undefined && Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
}
