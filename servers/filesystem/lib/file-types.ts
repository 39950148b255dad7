import { extname } from 'node:path';
import otherTypes from 'mime/types/other.js';
import standardTypes from 'mime/types/standard.js';
import { looksBinary } from '../../common/binary-sniff.js';

export type FileKind = 'text' | 'svg' | 'image' | 'audio' | 'video' | 'pdf' | 'binary';

const TS_EXT = new Set(['.ts', '.mts', '.cts']);
const BINARY_EXT = new Set(
  '.bin .exe .dll .so .dylib .class .jar .war .zip .tar .gz .bz2 .rar .7z .pak .rpa .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp'.split(
    ' ',
  ),
);
/** Audio formats a model accepts inline. */
const SUPPORTED_AUDIO_EXT = new Set(['.mp3', '.wav', '.aiff', '.aif', '.aac', '.ogg', '.oga', '.flac']);

// mime's default instance indexes its ~1,200 types as the module loads (~6 ms of every server start):
// its tables are indexed here on the first lookup instead. `*ext` marks an extension that belongs to
// another type first.
let typeOfExt: Map<string, string> | undefined;

export function mimeTypeOf(filePath: string): string | undefined {
  if (!typeOfExt) {
    typeOfExt = new Map();
    for (const table of [standardTypes, otherTypes] as Record<string, string[]>[]) {
      for (const [type, exts] of Object.entries(table)) {
        for (const ext of exts) if (!ext.startsWith('*') && !typeOfExt.has(ext)) typeOfExt.set(ext, type);
      }
    }
  }
  // mime's reading of a path: the text after the last dot of the last segment; a bare word (`png`) or
  // a leading-dot name (`.png`) is an extension only when no directory comes before it.
  const last = filePath.replace(/^.*[/\\]/s, '').toLowerCase();
  const ext = last.replace(/^.*\./s, '');
  const hasDot = ext.length < last.length - 1;
  if (!hasDot && last.length < filePath.length) return undefined;
  return typeOfExt.get(ext);
}

/** File type by name first, content sniff last (in that order). */
export function detectFileKind(filePath: string, head?: Buffer): FileKind {
  const ext = extname(filePath).toLowerCase();
  if (TS_EXT.has(ext)) return 'text';
  if (ext === '.svg') return 'svg';
  const type = mimeTypeOf(filePath);
  if (type?.startsWith('image/')) return 'image';
  if (type?.startsWith('audio/')) return 'audio';
  if (type?.startsWith('video/')) return 'video';
  if (type === 'application/pdf') return 'pdf';
  if (BINARY_EXT.has(ext)) return 'binary';
  return head && looksBinary(head) ? 'binary' : 'text';
}

export function isSupportedAudio(filePath: string): boolean {
  return SUPPORTED_AUDIO_EXT.has(extname(filePath).toLowerCase());
}

export function isMediaKind(kind: FileKind): kind is 'image' | 'audio' | 'video' | 'pdf' {
  return kind === 'image' || kind === 'audio' || kind === 'video' || kind === 'pdf';
}
