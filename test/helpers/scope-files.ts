import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScopeFile } from '../../host/skills/skill-toggle.js';
import { tempDir } from './tmp.js';

export interface ScopeLayout {
  home: string;
  proj: string;
  user: ScopeFile;
  workspace: ScopeFile;
  /** What the host reads the home folder from. */
  env: { GEMINI_CLI_HOME: string };
}

/**
 * A fresh home and project under a new temp folder, each with `.gemini/settings.json` holding the text
 * given (no file when it is undefined): the two settings files a `/skills` or `/agents` toggle edits.
 */
export function scopeLayout(userText?: string, projectText?: string): ScopeLayout {
  const dir = tempDir('gmc-scopes-');
  const home = join(dir, 'home');
  const proj = join(dir, 'proj');
  const user: ScopeFile = { scope: 'user', path: join(home, '.gemini', 'settings.json') };
  const workspace: ScopeFile = { scope: 'workspace', path: join(proj, '.gemini', 'settings.json') };
  for (const [f, text] of [
    [user.path, userText],
    [workspace.path, projectText],
  ] as const) {
    mkdirSync(join(f, '..'), { recursive: true });
    if (text !== undefined) writeFileSync(f, text);
  }
  return { home, proj, user, workspace, env: { GEMINI_CLI_HOME: home } };
}
