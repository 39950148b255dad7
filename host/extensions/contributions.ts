import { join, resolve } from 'node:path';
import type { CommandDir } from '../custom-commands/custom-commands.js';
import type { SkillDir } from '../skills/skills.js';
import type { LoadedExtension } from './loader.js';
import { readConfigFile } from '../config/config-file.js';

/**
 * Where commands and skills come from for one folder: the user's folders, the project's (only when the
 * folder is trusted) and the enabled extensions' (alphabetical, as Gemini CLI loads them).
 */
export interface ContributionOptions {
  cwd: string;
  home: string;
  trusted: boolean;
  extensions: LoadedExtension[];
}

const enabled = (exts: LoadedExtension[]) => exts.filter((e) => e.enabled).sort((a, b) => a.name.localeCompare(b.name));

export function commandDirs(o: ContributionOptions): CommandDir[] {
  const home = resolve(o.home);
  const project = resolve(o.cwd);
  const dirs: CommandDir[] = [
    { path: join(home, '.gemini', 'commands'), source: 'user', format: 'toml' },
    { path: join(home, '.claude', 'commands'), source: 'user', format: 'markdown' },
  ];
  // Run in the home folder, the project's folders are the user's: not read twice.
  if (o.trusted && project !== home) {
    dirs.push(
      { path: join(project, '.gemini', 'commands'), source: 'workspace', format: 'toml' },
      { path: join(project, '.claude', 'commands'), source: 'workspace', format: 'markdown' },
    );
  }
  for (const ext of enabled(o.extensions))
    dirs.push({
      path: join(ext.path, 'commands'),
      source: 'extension',
      extension: ext.name,
      format: 'toml',
      confine: ext.path,
    });
  return dirs;
}

export function skillDirs(o: ContributionOptions): SkillDir[] {
  const home = resolve(o.home);
  const project = resolve(o.cwd);
  const dirs: SkillDir[] = enabled(o.extensions).map((e) => ({
    path: join(e.path, 'skills'),
    extension: e.name,
    confine: e.path,
  }));
  for (const base of ['.gemini', '.agents', '.claude']) dirs.push({ path: join(home, base, 'skills') });
  if (o.trusted && project !== home)
    for (const base of ['.gemini', '.agents', '.claude']) dirs.push({ path: join(project, base, 'skills') });
  return dirs;
}

/** Enabled extensions' context files, each marked with its path as Gemini CLI marks context files. */
export function extensionContext(exts: LoadedExtension[]): string {
  const blocks: string[] = [];
  const files = [...new Set(enabled(exts).flatMap((e) => e.contextFiles))].sort();
  for (const file of files) {
    let text: string;
    try {
      // Read at every start: a context file that is a FIFO, a device or huge is skipped, never waited on.
      text = (readConfigFile(file) ?? '').trim();
    } catch {
      continue;
    }
    if (text) blocks.push(`--- Context from: ${file} ---\n${text}\n--- End of Context from: ${file} ---`);
  }
  return blocks.join('\n\n');
}
