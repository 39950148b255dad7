import { readFileSync } from 'node:fs';

/**
 * The package version, read once from package.json so servers and host report the same. The nearest
 * package.json above this module: the source sits one level below the root, a bundle two levels
 * (dist/bin/impl).
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
