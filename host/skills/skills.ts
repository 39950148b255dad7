import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readConfigFile } from '../config/config-file.js';
import { leadsOutside } from '../config/inside-folder.js';
import { splitFrontMatter } from './front-matter.js';

/**
 * Agent skills, as Gemini CLI reads them: a folder holding `SKILL.md` whose front matter gives `name`
 * and `description`; the body is the skill's instructions. Looked for as `<dir>/SKILL.md` and
 * `<dir>/*\/SKILL.md` in each skills folder. A later folder's skill replaces an earlier one's of the
 * same name (extensions, then user, then workspace).
 */
export interface Skill {
  name: string;
  description: string;
  /** Absolute path of its SKILL.md. */
  location: string;
  body: string;
  extension?: string;
}

export interface SkillDir {
  path: string;
  extension?: string;
  /** The folder a SKILL.md must really be in (an extension's): one linked from outside it is not read. */
  confine?: string;
}

function readSkill(file: string, dir: SkillDir): Skill | undefined {
  const extension = dir.extension;
  let text: string | undefined;
  try {
    if (dir.confine && leadsOutside(dir.confine, file)) return undefined;
    // The one safe reader: a SKILL.md that is a FIFO, a device or huge is skipped, never waited on.
    text = readConfigFile(file);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  const { data, body } = splitFrontMatter(text);
  const name = data?.name;
  const description = data?.description;
  if (typeof name !== 'string' || typeof description !== 'string') return undefined;
  return { name: name.replace(/[:\\/<>*?"|]/g, '-'), description, location: file, body: body.trim(), extension };
}

export function loadSkillsFrom(dir: SkillDir): Skill[] {
  const found: Skill[] = [];
  const top = readSkill(join(dir.path, 'SKILL.md'), dir);
  if (top) found.push(top);
  let entries: string[] = [];
  try {
    entries = readdirSync(dir.path).sort();
  } catch {
    return found;
  }
  for (const e of entries) {
    if (e === 'node_modules' || e === '.git') continue;
    const s = readSkill(join(dir.path, e, 'SKILL.md'), dir);
    if (s) found.push(s);
  }
  return found;
}

/** Skills of every folder in order; a later one replaces an earlier one of the same name. */
export function loadSkills(dirs: SkillDir[]): Skill[] {
  const byName = new Map<string, Skill>();
  for (const d of dirs) for (const s of loadSkillsFrom(d)) byName.set(s.name, s);
  return [...byName.values()];
}

/**
 * Names in settings' `skills.disabled` (user and workspace lists add up): such a skill is installed but
 * not offered to the model, as in Gemini CLI.
 */
export function disabledSkillNames(settings: Record<string, unknown>): Set<string> {
  const list = (settings.skills as { disabled?: unknown } | undefined)?.disabled;
  return new Set(Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : []);
}
