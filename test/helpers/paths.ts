import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename, join } from 'node:path';
// @ts-expect-error: a plain .mjs build script without type declarations
import { bundleModule } from '../../scripts/bundle.mjs';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

const bin = (name: string) => join(REPO, 'dist/bin', `${name}.cjs`);

/** The bin bundles users run (dist/bin, written by `npm run build`; `npm test` builds first). */
export const ENTRY = {
  filesystem: bin('gemini-mcp-filesystem'),
  shell: bin('gemini-mcp-shell'),
  web: bin('gemini-mcp-web'),
  memory: bin('gemini-mcp-memory'),
  discoveryBridge: bin('gemini-mcp-discovery-bridge'),
  host: bin('gemini-mcp'),
} as const;

export function requireBuilt(entry: string): string {
  if (!existsSync(entry)) throw new Error(`${entry} is not built: run npm run build`);
  return entry;
}

/**
 * A TypeScript module (a fixture server, a kit module) bundled for a plain `node` child process. Each test
 * worker bundles into a folder of its own (no two workers write one file); the run's teardown
 * (test/helpers/global-setup.ts) removes them all.
 */
export function bundledModule(source: string): string {
  const outDir = join(REPO, 'dist/test-modules', String(process.pid));
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, `${basename(source).replace(/\.[mc]?[tj]s$/, '')}.mjs`);
  return bundleModule(source, out) as string;
}
