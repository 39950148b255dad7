import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editorPathRefusal } from '../../../host/mcp/editor-path.js';
import { tempDir } from '../../helpers/tmp.js';

describe("the host's check of paths a built-in server hands to the editor", () => {
  it('allows real paths inside the roots (new files too) and refuses those a symlink leads outside', () => {
    const root = tempDir('gmc-edpath-');
    const outside = tempDir('gmc-edpath-out-');
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'f.txt'), 'x');
    writeFileSync(join(outside, 'f.txt'), 'secret');
    symlinkSync(outside, join(root, 'link'));
    symlinkSync(join(outside, 'f.txt'), join(root, 'file-link'));
    expect(editorPathRefusal(join(root, 'sub', 'f.txt'), [root])).toBeUndefined();
    expect(editorPathRefusal(join(root, 'sub', 'new', 'g.txt'), [root])).toBeUndefined();
    expect(editorPathRefusal(join(root, 'link', 'f.txt'), [root])).toMatch(/outside the workspace/);
    expect(editorPathRefusal(join(root, 'link', 'new.txt'), [root])).toMatch(/outside the workspace/);
    expect(editorPathRefusal(join(root, 'file-link'), [root])).toMatch(/outside the workspace/);
    expect(editorPathRefusal(join(outside, 'f.txt'), [root])).toMatch(/outside the workspace/);
    expect(editorPathRefusal('sub/f.txt', [root])).toMatch(/absolute path/);
  });
});
