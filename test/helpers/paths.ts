import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The plain tsc output of each entry point (what the bundles are built from). */
export const TSC_ENTRY = {
  filesystem: join(REPO, 'dist/servers/filesystem/main.js'),
  shell: join(REPO, 'dist/servers/shell/main.js'),
  web: join(REPO, 'dist/servers/web/main.js'),
  memory: join(REPO, 'dist/servers/memory/main.js'),
  discoveryBridge: join(REPO, 'dist/discovery-bridge/main.js'),
  host: join(REPO, 'dist/host/cli/main.js'),
} as const;

/**
 * The bin bundle users run (dist/bin, written by `npm run build` after tsc; `npm test` builds first).
 * After a `tsc`-only rebuild the bundle is older than the tsc output and would test stale code, so the
 * tsc output is used instead (the host's builtInEntry makes the same choice).
 */
function bundleOr(bin: string, plain: string): string {
  const bundle = join(REPO, 'dist/bin', `${bin}.mjs`);
  const b = statSync(bundle, { throwIfNoEntry: false });
  const p = statSync(plain, { throwIfNoEntry: false });
  return b && (!p || b.mtimeMs >= p.mtimeMs) ? bundle : plain;
}

/** Built entry points. */
export const ENTRY = {
  filesystem: bundleOr('gemini-mcp-filesystem', TSC_ENTRY.filesystem),
  shell: bundleOr('gemini-mcp-shell', TSC_ENTRY.shell),
  web: bundleOr('gemini-mcp-web', TSC_ENTRY.web),
  memory: bundleOr('gemini-mcp-memory', TSC_ENTRY.memory),
  discoveryBridge: bundleOr('gemini-mcp-discovery-bridge', TSC_ENTRY.discoveryBridge),
  host: bundleOr('gemini-mcp', TSC_ENTRY.host),
} as const;

export function requireBuilt(entry: string): string {
  if (!existsSync(entry)) throw new Error(`${entry} is not built: run npm run build`);
  return entry;
}
