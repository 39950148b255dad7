import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refuseLinksLeaving } from '../../../host/extensions/foreign-links.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-foreignlinks-');
const home = join(base, 'home');
mkdirSync(home);
writeFileSync(join(home, '.bashrc'), 'mine');
let n = 0;
/** A fresh staged extension folder with a skills/docs tree. */
function staged(): string {
  const root = join(base, `ext${++n}`);
  mkdirSync(join(root, 'skills', 'a'), { recursive: true });
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'guide.md'), 'x');
  return root;
}

describe('refuseLinksLeaving', () => {
  it('a tree without links, or with links that stay inside, passes', () => {
    const root = staged();
    expect(() => refuseLinksLeaving(root)).not.toThrow();
    symlinkSync('../../docs', join(root, 'skills', 'a', 'docs'));
    symlinkSync(join(root, 'docs', 'guide.md'), join(root, 'guide'));
    symlinkSync('.', join(root, 'self'));
    expect(() => refuseLinksLeaving(root)).not.toThrow();
  });

  it('a link to a file of the user is refused, naming the link and its target', () => {
    const root = staged();
    symlinkSync(join(home, '.bashrc'), join(root, 'skills', 'a', 'rc'));
    expect(() => refuseLinksLeaving(root)).toThrow(
      `Refusing to install: the extension's link "skills/a/rc" leads outside it (to ${join(home, '.bashrc')}).`,
    );
  });

  it('relative escapes, the parent folder and a prefix sibling are outside', () => {
    for (const target of ['../home/.bashrc', '..', () => `${base}/ext${n}-evil`]) {
      const root = staged();
      const t = typeof target === 'function' ? target() : target;
      if (typeof target === 'function') mkdirSync(t);
      symlinkSync(t, join(root, 'out'));
      expect(() => refuseLinksLeaving(root), t).toThrow(/leads outside it/);
    }
  });

  it('a dangling link is judged by where its text points: outside is refused, inside kept', () => {
    const inside = staged();
    symlinkSync('docs/not-yet.md', join(inside, 'later'));
    expect(() => refuseLinksLeaving(inside)).not.toThrow();
    const outside = staged();
    symlinkSync(join(home, '.ssh', 'id_rsa'), join(outside, 'key'));
    expect(() => refuseLinksLeaving(outside)).toThrow(/"key" leads outside it/);
  });

  it('a link deep in the tree is found', () => {
    const root = staged();
    mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
    symlinkSync(home, join(root, 'a', 'b', 'c', 'home'));
    expect(() => refuseLinksLeaving(root)).toThrow(/"a\/b\/c\/home" leads outside it/);
  });

  it("git's own folder at the top is skipped; a .git further down is not", () => {
    const top = staged();
    mkdirSync(join(top, '.git'));
    symlinkSync(home, join(top, '.git', 'odd'));
    expect(() => refuseLinksLeaving(top)).not.toThrow();
    const nested = staged();
    mkdirSync(join(nested, 'vendor', '.git'), { recursive: true });
    symlinkSync(home, join(nested, 'vendor', '.git', 'odd'));
    expect(() => refuseLinksLeaving(nested)).toThrow(/vendor\/\.git\/odd/);
  });

  it('a chain of links that ends outside is refused', () => {
    const root = staged();
    symlinkSync(home, join(base, `hop${n}`));
    symlinkSync(join(base, `hop${n}`), join(root, 'via'));
    expect(() => refuseLinksLeaving(root)).toThrow(/"via" leads outside it/);
  });
});
