import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { disabledSkillNames, loadSkills, loadSkillsFrom } from '../../../host/skills/skills.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-skills-');
let n = 0;
const skillMd = (name: string, description = `${name} skill`, body = `Steps of ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n\n`;
/** A fresh skills folder holding `files` (paths relative to it). */
function folder(files: Record<string, string>): string {
  const dir = join(base, `skills${++n}`);
  mkdirSync(dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe('loadSkillsFrom', () => {
  it('reads <dir>/SKILL.md and <dir>/*/SKILL.md, sorted, body trimmed', () => {
    const dir = folder({
      'SKILL.md': skillMd('top'),
      'b/SKILL.md': skillMd('bee'),
      'a/SKILL.md': skillMd('ay'),
    });
    expect(loadSkillsFrom({ path: dir })).toEqual([
      {
        name: 'top',
        description: 'top skill',
        location: join(dir, 'SKILL.md'),
        body: 'Steps of top.',
        extension: undefined,
      },
      {
        name: 'ay',
        description: 'ay skill',
        location: join(dir, 'a', 'SKILL.md'),
        body: 'Steps of ay.',
        extension: undefined,
      },
      {
        name: 'bee',
        description: 'bee skill',
        location: join(dir, 'b', 'SKILL.md'),
        body: 'Steps of bee.',
        extension: undefined,
      },
    ]);
  });

  it('does not look deeper than one level, nor in node_modules or .git', () => {
    const dir = folder({
      'a/b/SKILL.md': skillMd('deep'),
      'node_modules/SKILL.md': skillMd('dep'),
      '.git/SKILL.md': skillMd('git'),
    });
    expect(loadSkillsFrom({ path: dir })).toEqual([]);
  });

  it('skips files without a string name and description, and folders named SKILL.md', () => {
    const dir = folder({
      'a/SKILL.md': '---\nname: a\n---\nno description',
      'b/SKILL.md': 'no front matter',
      'c/SKILL.md': '---\nname: [1]\ndescription: d\n---\n',
      'ok/SKILL.md': skillMd('ok'),
    });
    mkdirSync(join(dir, 'd', 'SKILL.md'), { recursive: true });
    expect(loadSkillsFrom({ path: dir }).map((s) => s.name)).toEqual(['ok']);
  });

  it('a name cannot carry path or shell-special characters', () => {
    const dir = folder({ 'x/SKILL.md': skillMd('"../../etc/x*?|<a>"', 'd') });
    expect(loadSkillsFrom({ path: dir })[0]?.name).toBe('..-..-etc-x----a-');
  });

  it('a bare colon in the description is read as Gemini CLI reads it', () => {
    const dir = folder({ 'x/SKILL.md': skillMd('x', 'Review: find bugs') });
    expect(loadSkillsFrom({ path: dir })[0]?.description).toBe('Review: find bugs');
  });

  it('an extension skill linked from outside the extension is not read; one inside is', () => {
    const outside = folder({ 'SKILL.md': skillMd('stolen') });
    const ext = folder({ 'skills/own/SKILL.md': skillMd('own') });
    mkdirSync(join(ext, 'skills', 'link'));
    symlinkSync(join(outside, 'SKILL.md'), join(ext, 'skills', 'link', 'SKILL.md'));
    const skills = loadSkillsFrom({ path: join(ext, 'skills'), extension: 'e', confine: ext });
    expect(skills.map((s) => [s.name, s.extension])).toEqual([['own', 'e']]);
    // Without a confining folder (the user's own skills), a link is followed.
    expect(loadSkillsFrom({ path: join(ext, 'skills') }).map((s) => s.name)).toEqual(['stolen', 'own']);
  });

  it('a missing folder has no skills', () => {
    expect(loadSkillsFrom({ path: join(base, 'none') })).toEqual([]);
  });
});

describe('loadSkills', () => {
  it('a later folder replaces an earlier skill of the same name', () => {
    const ext = folder({ 'a/SKILL.md': skillMd('shared', 'from extension'), 'b/SKILL.md': skillMd('only-ext') });
    const user = folder({ 'a/SKILL.md': skillMd('shared', 'from user') });
    const skills = loadSkills([{ path: ext, extension: 'e' }, { path: user }]);
    expect(skills.map((s) => [s.name, s.description, s.extension])).toEqual([
      ['shared', 'from user', undefined],
      ['only-ext', 'only-ext skill', 'e'],
    ]);
  });
});

describe('disabledSkillNames', () => {
  it('the string entries of skills.disabled; anything else is none', () => {
    expect([...disabledSkillNames({ skills: { disabled: ['a', 3, null, 'b', 'a'] } })]).toEqual(['a', 'b']);
    expect(disabledSkillNames({ skills: { disabled: 'a' } }).size).toBe(0);
    expect(disabledSkillNames({}).size).toBe(0);
  });
});
