import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Built entry points; `npm test` builds first (pretest). */
export const ENTRY = {
  filesystem: join(REPO, 'dist/servers/filesystem/main.js'),
  shell: join(REPO, 'dist/servers/shell/main.js'),
  web: join(REPO, 'dist/servers/web/main.js'),
  memory: join(REPO, 'dist/servers/memory/main.js'),
  discoveryBridge: join(REPO, 'dist/discovery-bridge/main.js'),
  host: join(REPO, 'dist/host/cli/main.js'),
} as const;

export function requireBuilt(entry: string): string {
  if (!existsSync(entry)) throw new Error(`${entry} is not built: run npm run build`);
  return entry;
}
