import { readFileSync } from 'node:fs';

/**
 * The package version, read once from package.json so servers and host report the same. The nearest
 * package.json above this module: the source sits one level below the root, a bundle or one of its
 * chunks two or three levels (dist/bin, dist/bin/chunks).
 */
export const VERSION: string = (() => {
  for (let up = '../'; up.length <= 12; up += '../') {
    try {
      const pkg = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8'));
      if (pkg.name === 'gemini-mcp-cli') return pkg.version as string;
    } catch {
      // not at this depth
    }
  }
  return '0.0.0';
})();
