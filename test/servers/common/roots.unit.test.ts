import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WorkspaceRoots } from '../../../servers/common/roots.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-roots-');
const work = join(base, 'work');
const sub = join(work, 'sub');
const other = join(base, 'other');
const evil = join(base, 'work-evil');
for (const d of [work, sub, other, evil]) mkdirSync(d, { recursive: true });
writeFileSync(join(base, 'file.txt'), 'x');
symlinkSync(other, join(work, 'escape'));
symlinkSync(work, join(base, 'work-link'));
const uri = (p: string) => pathToFileURL(p).href;

describe('WorkspaceRoots.normalise', () => {
  it('keeps existing directories as realpaths, in order, once each', () => {
    expect(WorkspaceRoots.normalise([sub, join(base, 'work-link'), work, `${work}/`])).toEqual([sub, work]);
  });

  it('drops files and missing paths', () => {
    expect(WorkspaceRoots.normalise([join(base, 'file.txt'), join(base, 'missing'), other])).toEqual([other]);
  });
});

describe('WorkspaceRoots: operator roots are the ceiling', () => {
  it('starts at the operator roots, first one primary', () => {
    const roots = new WorkspaceRoots([work, other]);
    expect(roots.list).toEqual([work, other]);
    expect(roots.primary).toBe(work);
    expect(roots.bound).toEqual([work, other]);
  });

  it('no usable operator root leaves no primary', () => {
    const roots = new WorkspaceRoots([join(base, 'nope')]);
    expect(roots.list).toEqual([]);
    expect(roots.primary).toBeUndefined();
  });

  it('a client root inside the operator root narrows to it', () => {
    const roots = new WorkspaceRoots([work]);
    expect(roots.setFromClient([uri(sub)])).toEqual({ ignored: [], narrowed: [] });
    expect(roots.list).toEqual([sub]);
    expect(roots.bound).toEqual([work]);
  });

  it('a client root wider than the operator root keeps only the operator roots inside it', () => {
    const roots = new WorkspaceRoots([work, other]);
    const outcome = roots.setFromClient([uri(base)]);
    expect(outcome).toEqual({ ignored: [], narrowed: [uri(base)] });
    expect(roots.list).toEqual([work, other]);
  });

  it('a string-prefix sibling (work-evil) is outside and ignored; the operator roots apply', () => {
    const roots = new WorkspaceRoots([work]);
    roots.setFromClient([uri(sub)]);
    const outcome = roots.setFromClient([uri(evil)]);
    expect(outcome.ignored).toEqual([uri(evil)]);
    expect(roots.list).toEqual([work]);
  });

  it('a .. path and a symlink leading out are judged by where they really lead', () => {
    const roots = new WorkspaceRoots([work]);
    const outcome = roots.setFromClient([`${uri(work)}/../other`, uri(join(work, 'escape'))]);
    expect(outcome.ignored).toHaveLength(2);
    expect(roots.list).toEqual([work]);
  });

  it('a link to the workspace from outside is accepted as the workspace itself', () => {
    const roots = new WorkspaceRoots([work]);
    expect(roots.setFromClient([uri(join(base, 'work-link'))]).ignored).toEqual([]);
    expect(roots.list).toEqual([work]);
  });

  it('non-file URIs, files and missing directories are ignored', () => {
    const roots = new WorkspaceRoots([work]);
    const bad = ['https://example.com/work', 'not a uri', uri(join(base, 'file.txt')), uri(join(work, 'gone'))];
    expect(roots.setFromClient(bad).ignored).toEqual(bad);
    expect(roots.list).toEqual([work]);
  });

  it('duplicates collapse and the client order is kept', () => {
    const roots = new WorkspaceRoots([work, other]);
    roots.setFromClient([uri(other), uri(sub), uri(other), uri(`${sub}/`)]);
    expect(roots.list).toEqual([other, sub]);
    expect(roots.primary).toBe(other);
  });

  it('an empty client list restores the operator roots', () => {
    const roots = new WorkspaceRoots([work]);
    roots.setFromClient([uri(sub)]);
    roots.setFromClient([]);
    expect(roots.list).toEqual([work]);
  });

  it('the project temp dir is stored as its realpath, or resolved when it does not exist yet', () => {
    expect(new WorkspaceRoots([work], join(base, 'work-link')).projectTempDir).toBe(work);
    expect(new WorkspaceRoots([work], 'rel/tmp').projectTempDir).toBe(join(process.cwd(), 'rel/tmp'));
    expect(new WorkspaceRoots([work]).projectTempDir).toBeUndefined();
  });
});
