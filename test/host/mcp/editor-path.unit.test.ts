import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editorPathRefusal } from '../../../host/mcp/editor-path.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-editorpath-');
const work = join(base, 'work');
const other = join(base, 'other');
mkdirSync(join(work, 'src'), { recursive: true });
mkdirSync(other);
mkdirSync(join(base, 'work-evil'));
writeFileSync(join(work, 'src', 'a.ts'), 'x');
writeFileSync(join(other, 'secret'), 'x');
symlinkSync(other, join(work, 'out'));
symlinkSync(join(other, 'secret'), join(work, 'secret-link'));
symlinkSync(join(work, 'loop-b'), join(work, 'loop-a'));
symlinkSync(join(work, 'loop-a'), join(work, 'loop-b'));
symlinkSync(work, join(base, 'work-link'));
const outside = (p: string, roots = [work]) => `Path is outside the workspace roots (${roots.join(', ')}): ${p}`;

describe('editorPathRefusal', () => {
  it('files inside a root, existing or not yet, are allowed', () => {
    expect(editorPathRefusal(join(work, 'src', 'a.ts'), [work])).toBeUndefined();
    expect(editorPathRefusal(join(work, 'new', 'deep', 'file.ts'), [work])).toBeUndefined();
    expect(editorPathRefusal(work, [work])).toBeUndefined();
  });

  it('a relative path is refused: the editor is asked by absolute path', () => {
    expect(editorPathRefusal('src/a.ts', [work])).toBe(
      'The editor\'s files are asked for by absolute path, not "src/a.ts".',
    );
  });

  it('.. out of the root, a prefix sibling and another folder are outside', () => {
    for (const p of [join(work, '..', 'other', 'secret'), join(base, 'work-evil', 'x'), join(other, 'secret')])
      expect(editorPathRefusal(p, [work]), p).toBe(outside(p));
  });

  it('links are followed, through the longest existing part of a new path', () => {
    expect(editorPathRefusal(join(work, 'secret-link'), [work])).toBe(outside(join(work, 'secret-link')));
    const viaLinkedFolder = join(work, 'out', 'not-yet', 'f.txt');
    expect(editorPathRefusal(viaLinkedFolder, [work])).toBe(outside(viaLinkedFolder));
  });

  it('a root given through a link still holds its own files', () => {
    expect(editorPathRefusal(join(work, 'src', 'a.ts'), [join(base, 'work-link')])).toBeUndefined();
    expect(editorPathRefusal(join(base, 'work-link', 'src', 'a.ts'), [work])).toBeUndefined();
  });

  it('a link loop cannot be shown to stay inside: refused', () => {
    const p = join(work, 'loop-a', 'f');
    expect(editorPathRefusal(p, [work])).toBe(outside(p));
  });

  it('with several roots, any one may hold the path; the message lists them all', () => {
    expect(editorPathRefusal(join(other, 'secret'), [work, other])).toBeUndefined();
    const p = join(base, 'work-evil', 'x');
    expect(editorPathRefusal(p, [work, other])).toBe(outside(p, [work, other]));
  });
});
