import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';

export const DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024 - 64 * 1024;
export const RESULT_CUT_MARKER = "... [result truncated: exceeds the server's result size limit] ...";

/**
 * Keeps a serialized result under the transport bound: text blocks are cut at a
 * line boundary and marked; media are left to the tools, which size-check them before encoding.
 */
export function boundResultSize(result: CallToolResult, maxBytes = DEFAULT_MAX_RESULT_BYTES): CallToolResult {
  result = boundDisplay(result, maxBytes);
  let total = 0;
  for (const c of result.content) {
    if (c.type === 'text') total += Buffer.byteLength(c.text);
    else if (c.type === 'image' || c.type === 'audio') total += c.data.length;
    else if (c.type === 'resource' && 'blob' in c.resource) total += c.resource.blob.length;
  }
  if (total <= maxBytes) return result;
  let budget = maxBytes - (total - textBytes(result));
  const content = result.content.map((c) => {
    if (c.type !== 'text') return c;
    const bytes = Buffer.byteLength(c.text);
    if (bytes <= budget) {
      budget -= bytes;
      return c;
    }
    const cut = cutAtLine(c.text, Math.max(0, budget - RESULT_CUT_MARKER.length - 2));
    budget = 0;
    return { ...c, text: `${cut}\n${RESULT_CUT_MARKER}` };
  });
  return { ...result, content };
}

/**
 * The user-facing display in `_meta` travels in the same message; one that would crowd out the
 * model's text is dropped (the host then shows the text itself).
 */
function boundDisplay(result: CallToolResult, maxBytes: number): CallToolResult {
  const display = result._meta?.[META.display];
  if (display === undefined) return result;
  // The characters of its strings are a lower bound of its JSON size: enough to drop a huge one unserialized.
  const keep =
    lowerBoundSize(display) <= maxBytes / 4 &&
    Buffer.byteLength(typeof display === 'string' ? display : JSON.stringify(display)) <= maxBytes / 4;
  if (keep) return result;
  const { [META.display]: _dropped, ...rest } = result._meta ?? {};
  return { ...result, _meta: rest };
}

function textBytes(result: CallToolResult): number {
  return result.content.reduce((n, c) => n + (c.type === 'text' ? Buffer.byteLength(c.text) : 0), 0);
}

function cutAtLine(text: string, maxBytes: number): string {
  const buf = Buffer.from(text);
  if (buf.length <= maxBytes) return text;
  const head = buf.subarray(0, maxBytes).toString('utf8');
  const nl = head.lastIndexOf('\n');
  return nl > 0 ? head.slice(0, nl) : head.replace(/\uFFFD$/, '');
}

function lowerBoundSize(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  for (const v of Object.values(value)) n += typeof v === 'string' ? v.length : 0;
  return n;
}
