import type { Part } from '@google/genai';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import { wrapUntrusted, type FileDiffDisplay } from '../../protocol/tool-result.js';
import type { ResultDisplay } from './types.js';

/** An MCP result taken apart for the model and for the user. */
export interface ConvertedResult {
  isError: boolean;
  /** Joined text: `output` on success, `error` on failure. */
  text: string;
  /** Inline data sent as sibling parts after the functionResponse. */
  mediaParts: Part[];
  display: ResultDisplay;
  errorType?: string;
}

export interface ConvertOptions {
  /** The server's own tool name, used in media markers. */
  toolName: string;
  /** Fence text of untrusted third-party servers. */
  untrusted?: boolean;
}

const isMediaMime = (m: string) => m.startsWith('audio/') || m.startsWith('video/');

export function convertCallToolResult(result: CallToolResult, opts: ConvertOptions): ConvertedResult {
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  const errorType = typeof meta[META.errorType] === 'string' ? (meta[META.errorType] as string) : undefined;
  const isError = result.isError === true;
  if (!Array.isArray(result.content)) {
    const text = '[Error: Could not parse tool response]';
    return { isError, text, mediaParts: [], display: text, errorType };
  }
  const texts: string[] = [];
  const shown: string[] = [];
  const media: Part[] = [];
  const stripped: string[] = [];
  const addBinary = (kind: 'image data' | 'embedded resource', mimeType: string, data: string) => {
    if (isMediaMime(mimeType)) {
      stripped.push(mimeType);
      return;
    }
    texts.push(`[Tool '${opts.toolName}' provided the following ${kind} with mime-type: ${mimeType}]`);
    media.push({ inlineData: { mimeType, data } });
    shown.push(`[${kind === 'image data' ? 'Image' : 'Resource'}: ${mimeType}]`);
  };
  for (const block of result.content) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        shown.push(block.text);
        break;
      case 'image':
        addBinary('image data', block.mimeType, block.data);
        break;
      case 'audio':
        stripped.push(block.mimeType);
        shown.push(`[Audio: ${block.mimeType}]`);
        break;
      case 'resource': {
        const r = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
        if (typeof r.text === 'string') {
          texts.push(r.text);
          shown.push(r.text);
        } else if (typeof r.blob === 'string') {
          addBinary('embedded resource', r.mimeType ?? 'application/octet-stream', r.blob);
        }
        break;
      }
      case 'resource_link':
        texts.push(`Resource Link: ${block.title ?? block.name} at ${block.uri}`);
        shown.push(`[Link to ${block.title ?? block.name}: ${block.uri}]`);
        break;
      default:
        // Unknown block types are dropped.
        break;
    }
  }
  if (texts.length === 0 && media.length === 0 && result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    texts.push(json);
    shown.push(json);
  }
  let text = texts.join('\n');
  if (opts.untrusted && !isError && text) text = wrapUntrusted(text);
  if (stripped.length > 0) {
    const note = `[SYSTEM: Binary content (${stripped.join(', ')}) stripped from response due to protocol limitations.]`;
    text = text ? `${note}\n${text}` : note;
  }
  const declared = meta[META.display];
  const display: ResultDisplay = isDisplay(declared) ? declared : shown.join('\n');
  return { isError, text, mediaParts: media, display, errorType };
}

function isDisplay(v: unknown): v is ResultDisplay {
  if (typeof v === 'string') return true;
  if (!v || typeof v !== 'object') return false;
  const d = v as Partial<FileDiffDisplay>;
  return typeof d.fileDiff === 'string' && typeof d.fileName === 'string';
}

/** `{output}` plus media siblings, or `{error}` alone; empty output sends `{}`. */
export function functionResponseParts(
  callId: string,
  name: string,
  body: { output: string; media?: Part[] } | { error: string },
): Part[] {
  if ('error' in body) return [{ functionResponse: { id: callId, name, response: { error: body.error } } }];
  const media = body.media ?? [];
  const output = body.output || (media.length > 0 ? `Binary content provided (${media.length} item(s)).` : '');
  const response = output ? { output } : {};
  return [{ functionResponse: { id: callId, name, response } }, ...media];
}
