import type { FunctionDeclaration } from '@google/genai';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRef } from '../scheduler/types.js';

/**
 * Many tools: when every declaration together would exceed the budget, a request declares the most
 * relevant tools that fit plus `search_tools`, which finds the others by name, description or server.
 * A tool found that way is declared from then on; a call to any registered tool is accepted either way.
 */

/** The alias under which host-provided tools are registered; not a valid server alias, so never a server's. */
export const HOST_TOOLS_ALIAS = '@host';
export const SEARCH_TOOLS_NAME = 'search_tools';
/**
 * Characters of declarations (as JSON) a first request carries before tools are deferred to search, the
 * host's own tools included (write_todos alone is ~5,000): with search_tools' own declaration the request
 * stays under 25,000.
 */
export const DECLARATION_CHAR_BUDGET = 24_000;
const DEFAULT_RESULTS = 8;
const MAX_RESULTS = 25;

export const SEARCH_TOOLS_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Words describing the task, a tool name or part of one, or a server name.' },
    server: { type: 'string', description: 'Only tools of this MCP server (its alias).' },
    limit: {
      type: 'number',
      description: `At most this many tools (default ${DEFAULT_RESULTS}, at most ${MAX_RESULTS}).`,
    },
  },
  required: ['query'],
} as const;

export const SEARCH_TOOLS_DESCRIPTION =
  'Finds tools that are available but not declared in this request (there are too many to declare at once). ' +
  'Returns the matching tools with their full declarations; they can be called by name right after.';

/** The one tool type with the declaration the registry built for it. */
export type SearchableTool = Pick<ToolRef, 'exposedName' | 'serverAlias' | 'toolName' | 'description' | 'builtIn'> & {
  declaration: FunctionDeclaration;
};

// Runs of letters and digits, two or more long: the words of a query (a tool's texts are searched for
// them as they stand, below).
const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]{2,}/g) ?? [];

/** How well a tool matches the words: name parts weigh most, then the server, then the description. */
export function relevance(tool: SearchableTool, query: string): number {
  return scoreWords(tool, new Set(words(query)));
}

interface ToolText {
  exposed: string;
  name: string;
  server: string;
  desc: string;
}
// A tool's texts, lowercased once: every request ranks all tools against the user's message. A query
// word is looked up in them where it stands as a whole word, which is what splitting them into sets of
// words answered, without the sets (with 100 servers they were a tenth of a start's allocation).
const toolTexts = new WeakMap<SearchableTool, ToolText>();

function textsOf(tool: SearchableTool): ToolText {
  let t = toolTexts.get(tool);
  if (!t) {
    t = {
      exposed: tool.exposedName.toLowerCase(),
      name: tool.toolName.toLowerCase(),
      server: tool.serverAlias.toLowerCase(),
      desc: tool.description.toLowerCase(),
    };
    toolTexts.set(tool, t);
  }
  return t;
}

/** A letter or digit, the characters `words` makes words of (NaN, before the start or past the end, is not). */
const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/** Whether `word` (one of `words`' results) is one of the words of the lowercased `text`. */
function hasWord(text: string, word: string): boolean {
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
    if (!isWordChar(text.charCodeAt(i - 1)) && !isWordChar(text.charCodeAt(i + word.length))) return true;
  }
  return false;
}

function scoreWords(tool: SearchableTool, q: ReadonlySet<string>): number {
  if (q.size === 0) return 0;
  const { exposed, name, server, desc } = textsOf(tool);
  let score = 0;
  for (const w of q) {
    if (hasWord(name, w)) score += 3;
    else if (exposed.includes(w) && w.length >= 3) score += 2;
    if (hasWord(server, w)) score += 2;
    if (hasWord(desc, w)) score += 1;
  }
  return score;
}

// Declarations are rebuilt only when a registry changes; their size is asked at every request.
const sizes = new WeakMap<FunctionDeclaration, number>();
export const declarationSize = (d: FunctionDeclaration): number => {
  let n = sizes.get(d);
  if (n === undefined) sizes.set(d, (n = JSON.stringify(d).length));
  return n;
};

/**
 * Whether the tools' declarations fit `budget`, sizing only until they do not: with 100 servers the
 * budget is spent after some tens of their 665 tools, and each size is a serialisation.
 */
export function fitsBudget(tools: Iterable<{ declaration: FunctionDeclaration }>, budget: number): boolean {
  let total = 0;
  for (const t of tools) if ((total += declarationSize(t.declaration)) > budget) return false;
  return true;
}

/** No more than a declaration's serialised size (its name and description are in it whole): needs no serialisation. */
const sizeAtLeast = (d: FunctionDeclaration): number => (d.name?.length ?? 0) + (d.description?.length ?? 0);

export interface Selection {
  declared: SearchableTool[];
  /** How many offered tools were left for search_tools. */
  deferred: number;
}

/**
 * The tools to declare: all of them when they fit the budget; else built-in tools, then tools found or
 * used earlier, then the rest by relevance to `hint` (the user's message) and configuration order,
 * while they fit.
 */
export function selectTools<T extends SearchableTool>(
  tools: T[],
  active: ReadonlySet<string>,
  hint: string,
  budget = DECLARATION_CHAR_BUDGET,
): { declared: T[]; deferred: number } {
  if (fitsBudget(tools, budget)) return { declared: tools, deferred: 0 };
  const rank = (t: T): number => (t.builtIn ? 3 : active.has(t.exposedName) ? 2 : 0);
  const q = new Set(words(hint));
  // Built-in tools are declared whatever their score.
  const scored = tools.map((t, i) => ({ t, i, r: rank(t), s: t.builtIn ? 0 : scoreWords(t, q) }));
  scored.sort((a, b) => b.r - a.r || b.s - a.s || a.i - b.i);
  const chosen = new Set<T>();
  let used = 0;
  for (const { t, r } of scored) {
    // Built-in tools are the core set: always declared. Once the budget is nearly spent, most tools are
    // too long by their description alone and need not be sized.
    if (r < 3 && used + sizeAtLeast(t.declaration) > budget) continue;
    const n = declarationSize(t.declaration);
    if (r < 3 && used + n > budget) continue;
    chosen.add(t);
    used += n;
  }
  return { declared: tools.filter((t) => chosen.has(t)), deferred: tools.length - chosen.size };
}

/** The matching tools for a search_tools call, best first. */
export function searchTools<T extends SearchableTool>(tools: T[], args: Record<string, unknown>): T[] {
  const query = typeof args.query === 'string' ? args.query : '';
  const server = typeof args.server === 'string' && args.server ? args.server : undefined;
  const limit = Math.min(MAX_RESULTS, Math.max(1, Math.floor(Number(args.limit) || DEFAULT_RESULTS)));
  const pool = server ? tools.filter((t) => t.serverAlias === server) : tools;
  const q = new Set(words(query));
  const scored = pool.map((t, i) => ({ t, i, s: scoreWords(t, q) }));
  // With a server and no useful words, that server's tools in order.
  const hits = scored.filter((x) => x.s > 0 || (server && words(query).length === 0));
  hits.sort((a, b) => b.s - a.s || a.i - b.i);
  return hits.slice(0, limit).map((x) => x.t);
}

/** The result the model reads: the declarations it can now call. */
export function searchResult(found: SearchableTool[], query: string): CallToolResult {
  if (found.length === 0) {
    return { content: [{ type: 'text', text: `No tool matches "${query}". Try other words, or a server name.` }] };
  }
  const tools = found.map((t) => ({
    name: t.exposedName,
    server: t.serverAlias,
    description: t.declaration.description,
    parameters: t.declaration.parametersJsonSchema,
  }));
  return { content: [{ type: 'text', text: JSON.stringify({ tools }, null, 1) }], structuredContent: { tools } };
}
