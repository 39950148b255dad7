import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { legacyToJsonSchema, type JsonSchema } from './legacy-schema.js';

/** One tool as the bridge publishes it; `name` is the original name the call command receives. */
export interface DiscoveredTool {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations?: ToolAnnotations;
}

export interface ParsedDeclarations {
  tools: DiscoveredTool[];
  warnings: string[];
}

export const NOT_AN_ARRAY = 'Tool discovery command did not return a JSON array of tools.';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ANNOTATION_FLAGS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * Reads the discovery command's stdout: a JSON array whose elements are declarations
 * or `{functionDeclarations|function_declarations: [...]}` wrappers; other elements are ignored.
 * Throws the reference's message when the text is not a JSON array (or one wrapper object).
 */
export function parseDeclarations(stdout: string): ParsedDeclarations {
  let data: unknown;
  try {
    data = JSON.parse(stdout.trim());
  } catch {
    throw new Error(NOT_AN_ARRAY);
  }
  // Extension: a lone wrapper object is read as a one-element array (upstream rejects it).
  if (isObject(data) && (Array.isArray(data.functionDeclarations) || Array.isArray(data.function_declarations)))
    data = [data];
  if (!Array.isArray(data)) throw new Error(NOT_AN_ARRAY);
  const warnings: string[] = [];
  const declarations: unknown[] = [];
  for (const [i, element] of data.entries()) {
    if (!isObject(element)) {
      warnings.push(`element ${i} is not an object; ignored`);
      continue;
    }
    const wrapped = element.functionDeclarations ?? element.function_declarations;
    if (Array.isArray(wrapped)) declarations.push(...wrapped);
    else if (
      'name' in element ||
      'description' in element ||
      'parameters' in element ||
      'parametersJsonSchema' in element
    ) {
      declarations.push(element);
    } else warnings.push(`element ${i} is neither a function declaration nor a wrapper; ignored`);
  }
  const tools: DiscoveredTool[] = [];
  const seen = new Set<string>();
  for (const decl of declarations) {
    if (!isObject(decl) || typeof decl.name !== 'string' || decl.name.trim() === '') {
      warnings.push(`a declaration without a name was skipped: ${JSON.stringify(decl).slice(0, 200)}`);
      continue;
    }
    if (seen.has(decl.name)) {
      warnings.push(`duplicate tool "${decl.name}": the first declaration wins`);
      continue;
    }
    seen.add(decl.name);
    const { schema, warning } = inputSchemaOf(decl);
    if (warning) warnings.push(`tool "${decl.name}": ${warning}`);
    const annotations = annotationsOf(decl);
    tools.push({
      name: decl.name,
      description: typeof decl.description === 'string' ? decl.description : '',
      inputSchema: schema,
      ...(annotations ? { annotations } : {}),
    });
  }
  return { tools, warnings };
}

/** `parametersJsonSchema` wins; a lone legacy `parameters` is converted; the result is always an object schema. */
function inputSchemaOf(decl: Record<string, unknown>): { schema: DiscoveredTool['inputSchema']; warning?: string } {
  let schema: JsonSchema | undefined;
  if (isObject(decl.parametersJsonSchema)) schema = decl.parametersJsonSchema;
  else if (isObject(decl.parameters)) schema = legacyToJsonSchema(decl.parameters);
  else if (decl.parametersJsonSchema !== undefined || decl.parameters !== undefined) {
    return {
      schema: { type: 'object' },
      warning: 'its parameter schema is not an object; it takes no declared parameters',
    };
  }
  if (!schema) return { schema: { type: 'object' } };
  if (schema.type === undefined || schema.type === 'object') return { schema: { ...schema, type: 'object' } };
  return {
    schema: { type: 'object' },
    warning: `its parameter schema has type ${JSON.stringify(schema.type)}, but tool arguments are an object; replaced by {"type":"object"}`,
  };
}

/** MCP annotations a declaration may carry (`annotations` object); only well-typed keys are kept. */
function annotationsOf(decl: Record<string, unknown>): ToolAnnotations | undefined {
  if (!isObject(decl.annotations)) return undefined;
  const out: ToolAnnotations = {};
  if (typeof decl.annotations.title === 'string') out.title = decl.annotations.title;
  for (const flag of ANNOTATION_FLAGS) {
    if (typeof decl.annotations[flag] === 'boolean') out[flag] = decl.annotations[flag] as boolean;
  }
  return Object.keys(out).length ? out : undefined;
}
