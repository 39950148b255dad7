import mime from 'mime';
import otherTypes from 'mime/types/other.js';
import standardTypes from 'mime/types/standard.js';
import { describe, expect, it } from 'vitest';
import { detectFileKind, mimeTypeOf } from '../../../servers/filesystem/lib/file-types.js';

describe('mimeTypeOf: our lazy index of mime’s tables', () => {
  it('answers exactly as mime.getType for every extension mime knows, in any case and path form', () => {
    const exts = new Set(
      [standardTypes, otherTypes].flatMap((t) => Object.values(t as Record<string, string[]>).flat()),
    );
    expect(exts.size).toBeGreaterThan(1000);
    const differ: string[] = [];
    for (const raw of exts) {
      const ext = raw.replace(/^\*/, '');
      for (const path of [`a.${ext}`, `/x/y.z.${ext.toUpperCase()}`, ext]) {
        if ((mime.getType(path) ?? undefined) !== mimeTypeOf(path)) differ.push(path);
      }
    }
    expect(differ).toEqual([]);
  });

  it('reads paths as mime does: bare words and dot-names count only without a directory', () => {
    for (const path of [
      'README',
      'noext',
      '.bashrc',
      'x/y/.bashrc',
      'dir.d/file',
      'a.unknownext',
      'a.',
      'dir/png',
      '.png',
      '/x/.png',
      'png',
      'C:\\x\\y.PNG',
    ]) {
      expect(mimeTypeOf(path)).toBe(mime.getType(path) ?? undefined);
    }
    expect(mimeTypeOf('shot.PNG')).toBe('image/png');
    expect(detectFileKind('shot.png')).toBe('image');
    expect(detectFileKind('doc.pdf')).toBe('pdf');
  });
});
