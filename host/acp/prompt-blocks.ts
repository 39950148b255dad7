import { fileURLToPath } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk';
import type { Part } from '@google/genai';

/**
 * An ACP prompt as the host's prompt: the typed text (with `@path` for each file link, so the file is read
 * through the filesystem server exactly as a typed `@path` is, workspace checks included), plus parts the
 * editor sent whole (its selection or open buffer, images).
 */
export interface PromptInput {
  /** What the user typed, with `@path` references for linked files. */
  text: string;
  /** Embedded resources and images, in order, sent after the text. */
  extra: Part[];
}

/** `@path` with spaces escaped as the at-command parser reads them. */
function atRef(path: string): string {
  return `@${path.replace(/(\s)/g, '\\$1')}`;
}

function fileOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function embedded(r: acp.EmbeddedResourceResource): Part {
  if ('text' in r) {
    const where = fileOf(r.uri) ?? r.uri;
    return { text: `\n--- Content from the editor: ${where} ---\n${r.text}\n--- End of content ---` };
  }
  return { inlineData: { mimeType: r.mimeType ?? 'application/octet-stream', data: r.blob } };
}

export function promptInput(blocks: acp.ContentBlock[]): PromptInput {
  const words: string[] = [];
  const extra: Part[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case 'text':
        words.push(b.text);
        break;
      case 'image':
      case 'audio':
        extra.push({ inlineData: { mimeType: b.mimeType, data: b.data } });
        break;
      case 'resource_link': {
        const file = fileOf(b.uri);
        words.push(file ? atRef(file) : `[${b.title ?? b.name}](${b.uri})`);
        break;
      }
      case 'resource':
        extra.push(embedded(b.resource));
        break;
    }
  }
  return { text: words.join(' ').trim(), extra };
}
