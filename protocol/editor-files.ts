import * as z from 'zod/mini';
import { NS } from './meta.js';

/**
 * The editor's file system, offered by the host to our filesystem server over MCP (see
 * docs/editor-file-system.md). The host, as MCP client, advertises `capabilities.experimental[EDITOR_FILES]`
 * when an editor (an ACP client) lends it its buffers; the server then asks for a text file's content and
 * hands over a write with these two client requests, after its own path checks. A client without the
 * capability never gets them: the server reads and writes the disk as before.
 */
export const EDITOR_FILES = `${NS}/editorFiles`;

/** The capability's value: which of the two requests the client answers. */
export const EditorFilesCapabilitySchema = z.looseObject({
  readTextFile: z.optional(z.boolean()),
  writeTextFile: z.optional(z.boolean()),
});
export type EditorFilesCapability = z.infer<typeof EditorFilesCapabilitySchema>;

export const READ_TEXT_FILE = `${NS}/readTextFile`;
export const WRITE_TEXT_FILE = `${NS}/writeTextFile`;

/** Server → client: the text the editor has for this absolute path (its unsaved buffer, else the disk's). */
export const ReadTextFileRequestSchema = z.object({
  method: z.literal(READ_TEXT_FILE),
  params: z.looseObject({ path: z.string() }),
});
export const ReadTextFileResultSchema = z.looseObject({ content: z.string() });

/** Server → client: the editor writes this text (its buffer and undo history, then the file). */
export const WriteTextFileRequestSchema = z.object({
  method: z.literal(WRITE_TEXT_FILE),
  params: z.looseObject({ path: z.string(), content: z.string() }),
});
export const WriteTextFileResultSchema = z.looseObject({});

/** The host's side of the two requests (absent halves are not offered). */
export interface EditorFiles {
  readTextFile?(path: string, signal: AbortSignal): Promise<string>;
  writeTextFile?(path: string, content: string, signal: AbortSignal): Promise<void>;
}
