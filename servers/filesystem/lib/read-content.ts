import type { Stats } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isEscape, openChecked, readRegularHandle } from '../../common/confined-fs.js';
import type { Descriptor } from '../../common/descriptor.js';
import { isAllowedReal, notInWorkspaceMessage, realPathOf } from '../../common/path-guard.js';
import { ToolError } from '../../common/result.js';
import type { WorkspaceRoots } from '../../common/roots.js';
import { MAX_FILE_BYTES } from '../../../protocol/file-limits.js';
import type { ErrorType } from '../../../protocol/tool-result.js';
import { detectFileKind, isMediaKind, isSupportedAudio, mimeTypeOf, type FileKind } from './file-types.js';
import { decodeText, splitLines } from './text-decode.js';

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_LENGTH = 2000;
export { MAX_FILE_BYTES };
export const MAX_SVG_BYTES = 1024 * 1024;
export const DEFAULT_MAX_INLINE_MEDIA_BYTES = 6 * 1024 * 1024;
/** Room for a text window inside the 8 MiB serialized-result bound, JSON escaping included. */
export const DEFAULT_MAX_TEXT_BYTES = 7 * 1024 * 1024;

type MediaBlock = CallToolResult['content'][number];

export type ReadOutcome =
  | {
      kind: 'text';
      /** The window lines joined with `\n`. */
      content: string;
      /** offset > 0, the window ends early, or a line was cut. */
      truncated: boolean;
      windowShortened: boolean;
      linesCut: boolean;
      start: number;
      end: number;
      total: number;
    }
  | { kind: 'notice'; text: string; display: string; fileKind: FileKind }
  | { kind: 'media'; block: MediaBlock; fileKind: FileKind; display: string };

/** A read failure with its contract text, errorType and display. */
export class FileReadError extends ToolError {
  declare readonly display: string;
  constructor(message: string, errorType: ErrorType, display: string) {
    super(message, errorType, display);
  }
}

export interface ReadOptions {
  /** Path for messages (as resolved from the input). */
  abs: string;
  /** Path to open (symlinks resolved); what is read must really lie inside `roots`. */
  real: string;
  roots: WorkspaceRoots;
  /** Path relative to the primary root, for notices. */
  rel: string;
  offset?: number;
  limit?: number;
  maxInlineMediaBytes?: number;
  maxTextBytes?: number;
  /**
   * The editor's text for a file (its unsaved buffer), asked for by real path once the disk's file passed
   * every check and was found to be text: what the model reads is what the user sees. If the editor fails
   * to answer, the disk's text is used.
   */
  editorText?: (real: string) => Promise<string>;
}

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(2);

/** The read_file pipeline, shared with read_many_files. */
export async function readForModel(o: ReadOptions): Promise<ReadOutcome> {
  let fh: Descriptor;
  try {
    fh = await openChecked(o.real, { allowed: (real) => isAllowedReal(real, o.roots) });
  } catch (err) {
    // ENOTDIR: a parent is a file, so this path does not exist either.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new FileReadError(`File not found: ${o.abs}`, 'file_not_found', 'File not found.');
    }
    if (isEscape(err))
      throw new FileReadError(notInWorkspaceMessage(o.abs, o.roots), 'path_not_in_workspace', 'Path not in workspace.');
    throw readFailure(o, err);
  }
  try {
    return await readOpened(o, fh);
  } finally {
    await fh.close();
  }
}

async function readOpened(o: ReadOptions, fh: Descriptor): Promise<ReadOutcome> {
  let st: Stats;
  try {
    st = await fh.stat();
    if (st.isDirectory()) {
      throw new FileReadError(
        `Path is a directory, not a file: ${o.abs}`,
        'target_is_directory',
        'Path is a directory.',
      );
    }
  } catch (err) {
    if (err instanceof FileReadError) throw err;
    throw readFailure(o, err);
  }
  const size = st.size;
  if (size > MAX_FILE_BYTES) {
    throw new FileReadError(
      `File size exceeds the 20MB limit: ${o.abs} (${mb(size)}MB)`,
      'file_too_large',
      'File size exceeds the 20MB limit.',
    );
  }
  const nameKind = detectFileKind(o.real);
  if (isMediaKind(nameKind)) return readMedia(o, nameKind, st, fh);
  if (nameKind === 'svg' && size > MAX_SVG_BYTES) {
    const text = `Cannot display content of SVG file larger than 1MB: ${o.rel}`;
    return { kind: 'notice', text, display: `Skipped large SVG file (>1MB): ${o.rel}`, fileKind: 'svg' };
  }
  let buf: Buffer;
  try {
    buf = await readRegularHandle(fh, o.real, st);
  } catch (err) {
    throw readFailure(o, err);
  }
  const kind = nameKind === 'svg' ? 'svg' : detectFileKind(o.real, buf);
  if (kind === 'binary') {
    return {
      kind: 'notice',
      text: `Cannot display content of binary file: ${o.rel}`,
      display: `Skipped binary file: ${o.rel}`,
      fileKind: 'binary',
    };
  }
  if (kind === 'svg') {
    return { kind: 'notice', text: decodeText(buf), display: `Read SVG as text: ${o.rel}`, fileKind: 'svg' };
  }
  // An editor that cannot open the file has no buffer of it: the disk's text is then the file's text.
  const text = (await editorTextOf(o)) ?? decodeText(buf);
  return textWindow(text, o.offset ?? 0, o.limit ?? DEFAULT_LINE_LIMIT, o.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES);
}

/**
 * The editor opens the file by name: its path is checked again just before (still its own real path, still
 * allowed), so a file or parent swapped for a symlink since the checked open does not show the model text
 * from outside the workspace. Any doubt, or an editor that cannot answer, leaves the disk's checked text.
 */
async function editorTextOf(o: ReadOptions): Promise<string | undefined> {
  if (!o.editorText) return undefined;
  let now: string;
  try {
    now = realPathOf(o.real);
  } catch {
    return undefined;
  }
  if (now !== o.real || !isAllowedReal(now, o.roots)) return undefined;
  return o.editorText(o.real).catch(() => undefined);
}

function readFailure(o: ReadOptions, err: unknown): FileReadError {
  const msg = (err as Error).message;
  return new FileReadError(
    `Error reading file ${o.abs}: ${msg}`,
    'read_content_failure',
    `Error reading file ${o.rel}: ${msg}`,
  );
}

async function readMedia(
  o: ReadOptions,
  kind: 'image' | 'audio' | 'video' | 'pdf',
  st: Stats,
  fh: Descriptor,
): Promise<ReadOutcome> {
  const size = st.size;
  if (kind === 'audio' && !isSupportedAudio(o.real)) {
    throw new FileReadError(
      `Unsupported audio file format for ${o.abs}. Supported audio formats are MP3, WAV, AIFF, AAC, OGG, and FLAC.`,
      'read_content_failure',
      `Unsupported audio file format: ${o.rel}`,
    );
  }
  const limit = o.maxInlineMediaBytes ?? DEFAULT_MAX_INLINE_MEDIA_BYTES;
  if (size > limit) {
    const n = Math.round(limit / (1024 * 1024));
    throw new FileReadError(
      `File size exceeds the ${n}MB limit: ${o.abs} (${mb(size)}MB)`,
      'file_too_large',
      `File size exceeds the ${n}MB limit.`,
    );
  }
  let data: string;
  try {
    data = (await readRegularHandle(fh, o.real, st)).toString('base64');
  } catch (err) {
    throw readFailure(o, err);
  }
  const mimeType = mimeTypeOf(o.real) ?? 'application/octet-stream';
  const display = `Read ${kind} file: ${o.rel}`;
  if (kind === 'image' || kind === 'audio')
    return { kind: 'media', fileKind: kind, display, block: { type: kind, data, mimeType } };
  const uri = pathToFileURL(o.abs).href;
  return {
    kind: 'media',
    fileKind: kind,
    display,
    block: { type: 'resource', resource: { uri, mimeType, blob: data } },
  };
}

/** Window, line cutting and the byte bound of a text file. */
export function textWindow(
  text: string,
  offset: number,
  limit: number,
  maxBytes: number,
): ReadOutcome & { kind: 'text' } {
  const lines = splitLines(text);
  const total = lines.length;
  const start = Math.min(offset, total);
  let end = Math.min(start + limit, total);
  let linesCut = false;
  const window: string[] = [];
  let bytes = 0;
  let windowShortened = false;
  for (let i = start; i < end; i++) {
    let line = lines[i];
    if (line.length > MAX_LINE_LENGTH) {
      line = `${line.slice(0, MAX_LINE_LENGTH)}... [truncated]`;
      linesCut = true;
    }
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > maxBytes && window.length > 0) {
      end = i;
      windowShortened = true;
      break;
    }
    window.push(line);
  }
  const truncated = offset > 0 || end < total || linesCut;
  return { kind: 'text', content: window.join('\n'), truncated, windowShortened, linesCut, start, end, total };
}

/** The exact header read_file puts before a truncated window. */
export function truncatedHeader(r: { start: number; end: number; total: number }): string {
  const s = r.start + 1;
  return (
    `\nIMPORTANT: The file content has been truncated.\n` +
    `Status: Showing lines ${s}-${r.end} of ${r.total} total lines.\n` +
    `Action: To read more of the file, you can use the 'offset' and 'limit' parameters in a subsequent 'read_file' call. ` +
    `For example, to read the next section of the file, use offset: ${r.end}.\n\n` +
    `--- FILE CONTENT (truncated) ---\n`
  );
}
