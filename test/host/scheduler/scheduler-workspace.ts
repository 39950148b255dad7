import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';

/**
 * A workspace with its own GEMINI_CLI_HOME; only the servers named are started. The folder is trusted
 * (saved in the temp home's trustedFolders.json), so its settings and the approval modes apply.
 */
export function workspace(keep: string[]): { dir: string; env: NodeJS.ProcessEnv } {
  const root = tempDir('gmc-rt-');
  const dir = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(join(dir, '.gemini'), { recursive: true });
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [dir]: 'TRUST_FOLDER' }));
  const excluded = ['filesystem', 'shell', 'web', 'memory'].filter((a) => !keep.includes(a));
  writeFileSync(join(dir, '.gemini', 'settings.json'), JSON.stringify({ mcp: { excluded } }));
  return { dir, env: { ...process.env, GEMINI_CLI_HOME: home } };
}
