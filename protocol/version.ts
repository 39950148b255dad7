import { readFileSync } from 'node:fs';

/** The package version, read once from package.json so servers and host report the same. */
export const VERSION: string = (() => {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      return JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')).version as string;
    } catch {
      // source (protocol/) and the bundles (dist/bin/) sit at different depths
    }
  }
  return '0.0.0';
})();
