import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existingSecrets, protectedPaths, realOrUndefined } from '../../../protocol/sandbox/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-sbx-paths-');
const saved = { secrets: process.env.GEMINI_SANDBOX_SECRETS, cliHome: process.env.GEMINI_CLI_HOME };
beforeEach(() => {
  delete process.env.GEMINI_SANDBOX_SECRETS;
  delete process.env.GEMINI_CLI_HOME;
});
afterEach(() => {
  for (const [key, value] of [
    ['GEMINI_SANDBOX_SECRETS', saved.secrets],
    ['GEMINI_CLI_HOME', saved.cliHome],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

let n = 0;
/** A fresh home with a project folder in it: `<case>/home/proj`, and `<case>/elsewhere`. */
function layout() {
  const dir = join(base, `case${++n}`);
  const home = join(dir, 'home');
  const proj = join(home, 'proj');
  mkdirSync(proj, { recursive: true });
  mkdirSync(join(dir, 'elsewhere'));
  return { dir, home, proj };
}

describe('existingSecrets', () => {
  it('hides the credential files under home that exist, and nothing that does not', () => {
    const { home, proj } = layout();
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.netrc'), 'machine x');
    mkdirSync(join(home, '.gemini'));
    const secrets = existingSecrets([proj], [], home);
    expect(secrets).toEqual(expect.arrayContaining([join(home, '.ssh'), join(home, '.netrc'), join(home, '.gemini')]));
    expect(secrets).not.toContain(join(home, '.aws'));
    expect(secrets.filter((s) => s.startsWith(home))).toHaveLength(3);
  });

  it('a symlinked secret is hidden where it really is', () => {
    const { dir, home, proj } = layout();
    mkdirSync(join(dir, 'elsewhere', 'aws-real'));
    symlinkSync(join(dir, 'elsewhere', 'aws-real'), join(home, '.aws'));
    const secrets = existingSecrets([proj], [], home);
    expect(secrets).toContain(join(dir, 'elsewhere', 'aws-real'));
    expect(secrets).not.toContain(join(home, '.aws'));
  });

  it('.env files above a root are hidden, those inside it belong to the project', () => {
    const { dir, home, proj } = layout();
    writeFileSync(join(home, '.env.local'), 'K=1');
    writeFileSync(join(dir, '.env'), 'K=1');
    writeFileSync(join(dir, 'not.env'), 'K=1');
    writeFileSync(join(proj, '.env'), 'K=1');
    const secrets = existingSecrets([proj], [], home);
    expect(secrets).toEqual(expect.arrayContaining([join(home, '.env.local'), join(dir, '.env')]));
    expect(secrets).not.toContain(join(proj, '.env'));
    expect(secrets).not.toContain(join(dir, 'not.env'));
  });

  it('extra secrets: relative to home, ~/, absolute, and from GEMINI_SANDBOX_SECRETS', () => {
    const { dir, home, proj } = layout();
    mkdirSync(join(home, 'tokens'));
    writeFileSync(join(home, 'api.key'), 'k');
    writeFileSync(join(dir, 'elsewhere', 'abs.key'), 'k');
    writeFileSync(join(dir, 'elsewhere', 'env.key'), 'k');
    process.env.GEMINI_SANDBOX_SECRETS = `${join(dir, 'elsewhere', 'env.key')}::`;
    const secrets = existingSecrets([proj], ['tokens', '~/api.key', join(dir, 'elsewhere', 'abs.key')], home);
    expect(secrets).toEqual(
      expect.arrayContaining([
        join(home, 'tokens'),
        join(home, 'api.key'),
        join(dir, 'elsewhere', 'abs.key'),
        join(dir, 'elsewhere', 'env.key'),
      ]),
    );
  });

  it('never hides a root itself or /, even when listed', () => {
    const { home, proj } = layout();
    const secrets = existingSecrets([proj], ['proj', '/', '~'], home);
    expect(secrets).not.toContain(proj);
    expect(secrets).not.toContain('/');
    // The home folder holds the root: hidden, with the root mounted again inside it.
    expect(secrets).toContain(home);
  });

  it('with GEMINI_CLI_HOME, the .gemini folder there is hidden too', () => {
    const { dir, home, proj } = layout();
    mkdirSync(join(dir, 'cli-home', '.gemini'), { recursive: true });
    process.env.GEMINI_CLI_HOME = join(dir, 'cli-home');
    expect(existingSecrets([proj], [], home)).toContain(join(dir, 'cli-home', '.gemini'));
  });
});

describe('protectedPaths', () => {
  it('splits the workspace files that run code later into present and absent', () => {
    const { proj } = layout();
    writeFileSync(join(proj, '.bashrc'), '');
    mkdirSync(join(proj, '.vscode'));
    writeFileSync(join(proj, '.vscode', 'tasks.json'), '{}');
    const p = protectedPaths([proj]);
    expect(p.present).toEqual(expect.arrayContaining([join(proj, '.bashrc'), join(proj, '.vscode', 'tasks.json')]));
    expect(p.absent).toEqual(expect.arrayContaining([join(proj, '.mcp.json'), join(proj, '.gemini', 'settings.json')]));
    expect(p.present).not.toContain(join(proj, '.mcp.json'));
  });

  it('a root without .git: .git may appear only as a directory, its hooks and config are watched', () => {
    const { proj } = layout();
    const p = protectedPaths([proj]);
    expect(p.mayBecomeDir).toEqual([join(proj, '.git')]);
    expect(p.absent).toEqual(expect.arrayContaining([join(proj, '.git', 'hooks'), join(proj, '.git', 'config')]));
  });

  it('a .git directory: hooks, config, commondir, modules, and worktrees when present', () => {
    const { proj } = layout();
    mkdirSync(join(proj, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(proj, '.git', 'config'), '');
    mkdirSync(join(proj, '.git', 'worktrees'));
    mkdirSync(join(proj, '.git', 'info'));
    const p = protectedPaths([proj]);
    expect(p.mayBecomeDir).toEqual([]);
    expect(p.present).toEqual(
      expect.arrayContaining(['hooks', 'config', 'worktrees'].map((r) => join(proj, '.git', r))),
    );
    expect(p.absent).toEqual(
      expect.arrayContaining(['config.worktree', 'commondir', 'modules'].map((r) => join(proj, '.git', r))),
    );
    // info (exclude, attributes) names no program: left writable.
    expect([...p.present, ...p.absent]).not.toContain(join(proj, '.git', 'info'));
  });

  it('a .git file (gitdir: elsewhere) is itself protected, nothing below it is', () => {
    const { proj } = layout();
    writeFileSync(join(proj, '.git'), 'gitdir: /somewhere/else\n');
    const p = protectedPaths([proj]);
    expect(p.present).toContain(join(proj, '.git'));
    expect([...p.present, ...p.absent].some((x) => x.startsWith(`${join(proj, '.git')}/`))).toBe(false);
    expect(p.mayBecomeDir).toEqual([]);
  });

  it('nested repositories are found down to depth 3, but not inside node_modules', () => {
    const { proj } = layout();
    mkdirSync(join(proj, 'a', '.git', 'hooks'), { recursive: true });
    mkdirSync(join(proj, 'a', 'b', 'c', '.git'), { recursive: true });
    mkdirSync(join(proj, 'a', 'b', 'c', 'd', '.git'), { recursive: true });
    mkdirSync(join(proj, 'node_modules', 'pkg', '.git'), { recursive: true });
    const all = (() => {
      const p = protectedPaths([proj]);
      return [...p.present, ...p.absent];
    })();
    expect(all).toContain(join(proj, 'a', '.git', 'hooks'));
    expect(all).toContain(join(proj, 'a', 'b', 'c', '.git', 'config'));
    expect(all.some((x) => x.includes(join('d', '.git')))).toBe(false);
    expect(all.some((x) => x.includes('node_modules'))).toBe(false);
    // A nested repository's missing .git is not the root's: it may not "become a directory".
    expect(protectedPaths([proj]).mayBecomeDir).toEqual([join(proj, '.git')]);
  });
});

describe('realOrUndefined', () => {
  it('follows links and gives undefined for a missing path', () => {
    const { dir } = layout();
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'link'));
    expect(realOrUndefined(join(dir, 'link'))).toBe(join(dir, 'elsewhere'));
    expect(realOrUndefined(join(dir, 'missing'))).toBeUndefined();
  });
});
