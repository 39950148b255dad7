import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  disabledIn,
  disableSkill,
  enableSkill,
  type ScopeFile,
  skillScopeFiles,
  toggleFeedback,
  toggleSkill,
} from '../../../host/skills/skill-toggle.js';
import { scopeLayout } from '../../helpers/scope-files.js';

describe('disabledIn', () => {
  it('the string names of skills.disabled; a missing file or odd value gives none', () => {
    const { user, workspace } = scopeLayout('{ "skills": { "disabled": ["a", 1, "b"] } }');
    expect(disabledIn(user.path)).toEqual(['a', 'b']);
    expect(disabledIn(workspace.path)).toEqual([]);
    const odd = scopeLayout('{ "skills": { "disabled": "a" } }');
    expect(disabledIn(odd.user.path)).toEqual([]);
  });
});

describe('disableSkill', () => {
  it('adds the name to the target file, keeping its comments and other settings', () => {
    const { workspace, user } = scopeLayout(undefined, '{\n  // mine\n  "ui": { "theme": "x" }\n}\n');
    const r = disableSkill('lint', workspace, user);
    expect(r).toEqual({ status: 'success', action: 'disable', name: 'lint', modified: [workspace], already: [] });
    const text = readFileSync(workspace.path, 'utf8');
    expect(text).toContain('// mine');
    expect(text).toContain('"theme": "x"');
    expect(disabledIn(workspace.path)).toEqual(['lint']);
  });

  it('already listed there: no-op, the file untouched', () => {
    const original = '{ "skills": { "disabled": ["lint"] } /* keep */ }';
    const { user } = scopeLayout(original);
    expect(disableSkill('lint', user, undefined).status).toBe('no-op');
    expect(readFileSync(user.path, 'utf8')).toBe(original);
  });

  it('reports the other scope when it lists the name too', () => {
    const { user, workspace } = scopeLayout('{ "skills": { "disabled": ["lint"] } }');
    expect(disableSkill('lint', workspace, user).already).toEqual([user]);
  });
});

describe('enableSkill', () => {
  it('removes the name from every file that lists it, and only that name', () => {
    const { user, workspace } = scopeLayout(
      '{ "skills": { "disabled": ["lint", "fmt"] } }',
      '{ "skills": { "disabled": ["lint"] } }',
    );
    const r = enableSkill('lint', [workspace, user]);
    expect(r.status).toBe('success');
    expect(r.modified).toEqual([workspace, user]);
    expect(disabledIn(user.path)).toEqual(['fmt']);
    expect(disabledIn(workspace.path)).toEqual([]);
  });

  it('listed nowhere: no-op, no file created', () => {
    const { user, workspace } = scopeLayout();
    expect(enableSkill('lint', [workspace, user])).toMatchObject({ status: 'no-op', modified: [] });
    expect(() => readFileSync(user.path)).toThrow(/ENOENT/);
  });
});

describe("toggleFeedback: Gemini CLI 0.61's wording", () => {
  const u: ScopeFile = { scope: 'user', path: '/h/.gemini/settings.json' };
  const w: ScopeFile = { scope: 'workspace', path: '/p/.gemini/settings.json' };
  it('each outcome', () => {
    expect(toggleFeedback({ status: 'no-op', action: 'enable', name: 's', modified: [], already: [w, u] })).toBe(
      'Skill "s" is already enabled.',
    );
    expect(toggleFeedback({ status: 'no-op', action: 'disable', name: 's', modified: [], already: [w] })).toBe(
      'Skill "s" is already disabled.',
    );
    expect(toggleFeedback({ status: 'success', action: 'disable', name: 's', modified: [w], already: [] })).toBe(
      'Skill "s" disabled by adding it to the disabled list in workspace (/p/.gemini/settings.json) settings.',
    );
    expect(toggleFeedback({ status: 'success', action: 'disable', name: 's', modified: [w], already: [u] })).toBe(
      'Skill "s" is now disabled in both workspace (/p/.gemini/settings.json) and user (/h/.gemini/settings.json) settings.',
    );
    expect(toggleFeedback({ status: 'success', action: 'enable', name: 's', modified: [w, u], already: [] })).toBe(
      'Skill "s" enabled by removing it from the disabled list in workspace (/p/.gemini/settings.json) and user (/h/.gemini/settings.json) settings.',
    );
  });
});

describe('skillScopeFiles and toggleSkill', () => {
  it('workspace first, then user; one file when run from the home folder', () => {
    const { home, proj, user, workspace, env } = scopeLayout();
    expect(skillScopeFiles(proj, env)).toEqual([workspace, user]);
    expect(skillScopeFiles(home, env)).toEqual([user]);
  });

  it('disable goes to the workspace file unless the scope is user; enable clears both', () => {
    const { proj, user, workspace, env } = scopeLayout();
    expect(toggleSkill('disable', 'lint', 'workspace', { cwd: proj, env })).toBe(
      `Skill "lint" disabled by adding it to the disabled list in workspace (${workspace.path}) settings.`,
    );
    toggleSkill('disable', 'lint', 'user', { cwd: proj, env });
    expect(disabledIn(user.path)).toEqual(['lint']);
    expect(toggleSkill('enable', 'lint', 'workspace', { cwd: proj, env })).toBe(
      `Skill "lint" enabled by removing it from the disabled list in workspace (${workspace.path}) and user (${user.path}) settings.`,
    );
    expect([disabledIn(user.path), disabledIn(workspace.path)]).toEqual([[], []]);
  });

  it('from the home folder a workspace-scope disable edits the one user file', () => {
    const { home, user, env } = scopeLayout();
    toggleSkill('disable', 'lint', 'workspace', { cwd: home, env });
    expect(disabledIn(user.path)).toEqual(['lint']);
  });
});
