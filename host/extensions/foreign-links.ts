import { readdirSync, readlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { isWithin, realPathOf } from '../config/inside-folder.js';

/**
 * A fetched extension is a third party's tree: a link in it may name `~/.bashrc`, `~/.gemini/settings.json`
 * or `~/.ssh`, and whatever later reads or writes through it would reach that file. Before an install
 * goes further, every link in the staged copy must lead inside it; the first one that does not stops the
 * install, named. Links that stay inside (a shared `docs/` linked from two skills) are kept.
 */
export function refuseLinksLeaving(root: string): void {
  const realRoot = realPathOf(root) ?? root;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // git's own folder holds no links from the repository, and can be large.
      if (dir === root && entry.name === '.git') continue;
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      if (!entry.isSymbolicLink()) continue;
      const target = readlinkSync(p);
      const real = realPathOf(p);
      // A dangling link is judged by where its text points: it must not be able to come alive outside.
      const inside = real === undefined ? isWithin(root, resolve(dirname(p), target)) : isWithin(realRoot, real);
      if (!inside)
        throw new Error(
          `Refusing to install: the extension's link "${relative(root, p)}" leads outside it (to ${target}).`,
        );
    }
  };
  walk(root);
}
