import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isWithin } from '../../protocol/path-within.js';
import { safeBlock } from '../safe-text.js';
import { loadSkillsFrom, type Skill } from './skills.js';

/**
 * `skills install|link|uninstall`, as Gemini CLI 0.61 does them: a skill folder (one with SKILL.md, or a
 * folder of them) is copied (install) or symlinked (link) into ~/.gemini/skills/<name> (scope user) or
 * <project>/.gemini/skills/<name> (scope workspace), after the user agrees; uninstall removes it. A skill
 * name that would leave the skills folder is refused; a copy lands whole or not at all.
 */
export type SkillScope = 'user' | 'workspace';

export interface SkillInstallIo {
  cwd: string;
  home: string;
  log(text: string): void;
  /** Shows the text and asks yes/no (default yes). */
  confirm(text: string): Promise<boolean>;
}

const WARNING =
  "Agent skills inject specialized instructions and domain-specific knowledge into the agent's system prompt. This can change how the agent interprets your requests and interacts with your environment. Review the skill definitions at the location(s) provided below to ensure they meet your security standards.";

export function skillsDirFor(scope: SkillScope, io: Pick<SkillInstallIo, 'cwd' | 'home'>): string {
  return resolve(scope === 'workspace' ? io.cwd : io.home, '.gemini', 'skills');
}

/** Where a skill of this name goes, or an error when the name would leave the folder. */
function destination(target: string, name: string): string {
  const dest = resolve(target, name);
  // The folder itself is no skill's place either (a name of `.` or `x/..`).
  if (dest === target || !isWithin(target, dest)) throw new Error('Invalid skill name: Path traversal detected.');
  return dest;
}

function consentText(skills: Skill[], source: string, target: string, link: boolean): string {
  const action = link ? 'Linking' : 'Installing';
  const lines = [
    `${action} agent skill(s) from "${source}".`,
    `\nThe following agent skill(s) will be ${action.toLowerCase()}:\n`,
  ];
  for (const s of skills) {
    let count: string;
    try {
      count = ` (${readdirSync(dirname(s.location)).length} items in directory)`;
    } catch {
      count = ' (Could not count items in directory)';
    }
    lines.push(`  * ${s.name}: ${s.description}`, `    (Source: ${s.location})${count}`, '');
  }
  lines.push(`${link ? 'Link' : 'Install'} Destination: ${target}`, `\n${WARNING}`);
  // Names and descriptions come from someone else's files: shown, never interpreted by the terminal.
  return safeBlock(lines.join('\n'));
}

async function agreed(text: string, consent: boolean, io: SkillInstallIo): Promise<boolean> {
  if (!consent) return io.confirm(text);
  io.log(`You have consented to the following:\n${text}\n`);
  return true;
}

// Gemini CLI's rule, plus file:// (a local repository), as `extensions install` takes it.
const isGitUrl = (s: string) => /^(git@|https?:\/\/|file:\/\/)/.test(s);

function clone(url: string, dir: string): void {
  const r = spawnSync('git', ['clone', '--quiet', '--depth', '1', '--', url, dir], {
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  if (r.status !== 0) throw new Error(`Failed to clone ${url}: ${(r.stderr || r.error?.message || '').trim()}`);
}

function found(dir: string, shown: string, subpath?: string): Skill[] {
  const skills = loadSkillsFrom({ path: dir });
  if (!skills.length)
    throw new Error(
      `No valid skills found in ${shown}${subpath ? ` at path "${subpath}"` : ''}. Ensure a SKILL.md file exists with valid frontmatter.`,
    );
  return skills;
}

/** Copies each skill's folder in, replacing one of the same name; returns name and new location. */
export async function installSkills(
  req: { source: string; scope: SkillScope; subpath?: string; consent: boolean },
  io: SkillInstallIo,
): Promise<{ name: string; location: string }[]> {
  if (req.source.toLowerCase().endsWith('.skill'))
    throw new Error('.skill archives are not supported yet: unpack it and install the folder.');
  const temp = isGitUrl(req.source) ? mkdtempSync(join(tmpdir(), 'gemini-skill-')) : undefined;
  try {
    let base = resolve(io.cwd, req.source);
    if (temp) {
      io.log(`Cloning skill from ${req.source}...\n`);
      clone(req.source, temp);
      base = temp;
    }
    const from = req.subpath ? resolve(base, req.subpath) : base;
    if (req.subpath && !isWithin(base, from)) throw new Error('Invalid path: Directory traversal not allowed.');
    io.log(`Searching for skills in ${from}...\n`);
    const skills = found(from, req.source, req.subpath);
    const target = skillsDirFor(req.scope, io);
    if (!(await agreed(consentText(skills, req.source, target, false), req.consent, io)))
      throw new Error('Skill installation cancelled by user.');
    mkdirSync(target, { recursive: true });
    const done: { name: string; location: string }[] = [];
    for (const s of skills) {
      const dest = destination(target, s.name);
      const staging = mkdtempSync(join(target, `.installing-${s.name}-`));
      try {
        const src = dirname(s.location);
        // A cloned repository's .git folder is not part of the skill.
        cpSync(src, staging, { recursive: true, filter: (f) => !relative(src, f).split(sep).includes('.git') });
        // mkdtemp made the folder owner-only; the skill keeps its source folder's mode.
        chmodSync(staging, statSync(src).mode & 0o777);
        if (lstatSafe(dest)) {
          io.log(safeBlock(`Skill "${s.name}" already exists. Overwriting...\n`));
          rmSync(dest, { recursive: true, force: true });
        }
        renameSync(staging, dest);
      } finally {
        rmSync(staging, { recursive: true, force: true });
      }
      done.push({ name: s.name, location: dest });
    }
    return done;
  } finally {
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
}

function lstatSafe(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Symlinks each skill's folder in: edits to the source show at once. */
export async function linkSkills(
  req: { path: string; scope: SkillScope; consent: boolean },
  io: SkillInstallIo,
): Promise<void> {
  const source = resolve(io.cwd, req.path);
  io.log(`Searching for skills in ${source}...\n`);
  const skills = found(source, `"${source}"`);
  const seen = new Map<string, string>();
  for (const s of skills) {
    const first = seen.get(s.name);
    if (first)
      throw new Error(`Duplicate skill name "${s.name}" found at multiple locations:\n  - ${first}\n  - ${s.location}`);
    seen.set(s.name, s.location);
  }
  const target = skillsDirFor(req.scope, io);
  if (!(await agreed(consentText(skills, req.path, target, true), req.consent, io)))
    throw new Error('Skill linking cancelled by user.');
  mkdirSync(target, { recursive: true });
  for (const s of skills) {
    const dest = destination(target, s.name);
    if (lstatSafe(dest)) {
      io.log(safeBlock(`Skill "${s.name}" already exists at destination. Overwriting...\n`));
      rmSync(dest, { recursive: true, force: true });
    }
    symlinkSync(dirname(s.location), dest, 'dir');
  }
}

/** Removes the skill of that name (or the folder of that name) from the scope's folder; undefined if absent. */
export function uninstallSkill(name: string, scope: SkillScope, io: SkillInstallIo): string | undefined {
  const target = skillsDirFor(scope, io);
  const skill = loadSkillsFrom({ path: target }).find((s) => s.name === name);
  const dir = skill ? resolve(dirname(skill.location)) : resolve(target, name);
  // Never the skills folder itself, nothing outside it.
  if (dir === target || !isWithin(target, dir) || !lstatSafe(dir)) return undefined;
  rmSync(dir, { recursive: true, force: true });
  return dir;
}
