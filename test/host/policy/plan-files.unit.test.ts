import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PLAN_WRITE_DENIAL,
  forPlansOnly,
  isPlanFile,
  isPlanWriteTool,
  planFileArgs,
} from '../../../host/policy/plan-files.js';

let root: string;
let plans: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'plan-files-')));
  plans = join(root, '.gemini', 'plans');
  mkdirSync(plans, { recursive: true });
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.md'), 'source');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = { builtIn: true, serverAlias: 'filesystem', toolName: 'write_file' };
const replace = { ...write, toolName: 'replace' };

describe('isPlanWriteTool', () => {
  it('is our filesystem server’s write_file and replace only', () => {
    expect(isPlanWriteTool(write)).toBe(true);
    expect(isPlanWriteTool(replace)).toBe(true);
    expect(isPlanWriteTool({ ...write, builtIn: false })).toBe(false);
    expect(isPlanWriteTool({ ...write, serverAlias: 'other' })).toBe(false);
    expect(isPlanWriteTool({ ...write, toolName: 'run_shell_command' })).toBe(false);
  });
});

describe('isPlanFile: a .md file strictly inside the plans folder, by real paths', () => {
  it('accepts a new or existing .md plan, also in a subfolder', () => {
    expect(isPlanFile(plans, join(plans, 'plan.md'))).toBe(true);
    expect(isPlanFile(plans, join(plans, 'v2', 'plan.md'))).toBe(true);
  });

  it('refuses another extension, a relative path, a non-string, and the folder itself', () => {
    for (const p of [join(plans, 'plan.txt'), join(plans, 'plan.md.sh'), 'plan.md', 42, undefined, plans]) {
      expect(isPlanFile(plans, p), String(p)).toBe(false);
    }
  });

  it('refuses `..` climbing out and a sibling folder with the same prefix', () => {
    expect(isPlanFile(plans, join(plans, '..', '..', 'src', 'main.md'))).toBe(false);
    mkdirSync(`${plans}-evil`);
    expect(isPlanFile(plans, join(`${plans}-evil`, 'x.md'))).toBe(false);
  });

  it('refuses a link inside the plans folder that leads to the sources', () => {
    symlinkSync(join(root, 'src', 'main.md'), join(plans, 'link.md'));
    symlinkSync(join(root, 'src'), join(plans, 'srcdir'));
    expect(isPlanFile(plans, join(plans, 'link.md'))).toBe(false);
    expect(isPlanFile(plans, join(plans, 'srcdir', 'main.md'))).toBe(false);
  });

  it('accepts a dangling link in the plans folder by its own place: the atomic write replaces a link, never follows it', () => {
    symlinkSync(join(root, 'src', 'new.md'), join(plans, 'dangling.md'));
    expect(isPlanFile(plans, join(plans, 'dangling.md'))).toBe(true);
  });

  it('refuses everything when the plans folder itself is a link (it would make anywhere a plans folder)', () => {
    const linked = join(root, 'linked-plans');
    symlinkSync(join(root, 'src'), linked);
    expect(isPlanFile(linked, join(linked, 'main.md'))).toBe(false);
  });
});

describe('planFileArgs: a relative path names a plan', () => {
  it('takes it from the project root when that lands in the plans folder, else from the plans folder', () => {
    expect(planFileArgs(write, { file_path: '.gemini/plans/a.md', content: 'x' }, root, plans)).toEqual({
      file_path: join(plans, 'a.md'),
      content: 'x',
    });
    expect(planFileArgs(replace, { file_path: 'plan.md' }, root, plans)).toEqual({ file_path: join(plans, 'plan.md') });
  });

  it('resolves `..` against the plans folder, leaving the policy check to refuse where it leads', () => {
    const out = planFileArgs(write, { file_path: '../../src/main.md' }, root, plans);
    expect(out.file_path).toBe(join(root, 'src', 'main.md'));
    expect(isPlanFile(plans, out.file_path)).toBe(false);
  });

  it('passes unchanged: an absolute path, another tool, no plans folder, a missing or empty path', () => {
    const cases: [typeof write, Record<string, unknown>, string | undefined][] = [
      [write, { file_path: '/etc/passwd' }, plans],
      [{ ...write, toolName: 'read_file' }, { file_path: 'plan.md' }, plans],
      [write, { file_path: 'plan.md' }, undefined],
      [write, { file_path: '' }, plans],
      [write, { file_path: 3 }, plans],
      [write, {}, plans],
    ];
    for (const [tool, args, folder] of cases) expect(planFileArgs(tool, args, root, folder)).toBe(args);
  });
});

describe('plan mode wording (Gemini CLI 0.61)', () => {
  it('describes write_file as for plans only, naming the folder, and keeps the rest of the declaration', () => {
    const decl = forPlansOnly({ name: 'write_file', description: 'Writes a file', parameters: {} }, '/p');
    expect(decl.name).toBe('write_file');
    expect(decl.parameters).toEqual({});
    expect(decl.description).toBe(
      'ONLY FOR PLANS: Writes a file. You are currently in Plan Mode and may ONLY use this tool to write or update plans (.md files) in the plans directory: /p/. You cannot use this tool to modify source code directly.',
    );
    expect(PLAN_WRITE_DENIAL).toMatch(/^You are in Plan Mode and cannot modify source code\./);
  });
});
