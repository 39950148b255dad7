import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentToggleFeedback, currentOverrides, disableAgent, enableAgent } from '../../../host/agents/agent-toggle.js';
import type { ScopeFile } from '../../../host/skills/skill-toggle.js';
import { scopeLayout } from '../../helpers/scope-files.js';

const overrides = (f: ScopeFile) => JSON.parse(readFileSync(f.path, 'utf8').replace(/\/\/.*$/gm, '')).agents.overrides;

describe('enableAgent', () => {
  it('sets enabled: true in every file that does not say so yet, keeping comments', () => {
    const { user, workspace } = scopeLayout(
      '{\n  // mine\n  "agents": { "overrides": { "helper": { "enabled": false, "runConfig": { "maxTurns": 3 } } } }\n}\n',
      '{ "agents": { "overrides": { "helper": { "enabled": true } } } }',
    );
    const r = enableAgent('helper', [workspace, user]);
    expect(r).toMatchObject({ status: 'success', modified: [user], already: [workspace] });
    expect(readFileSync(user.path, 'utf8')).toContain('// mine');
    expect(overrides(user).helper).toEqual({ enabled: true, runConfig: { maxTurns: 3 } });
  });

  it('enabled everywhere already: no-op', () => {
    const { user, workspace } = scopeLayout(
      '{ "agents": { "overrides": { "a": { "enabled": true } } } }',
      '{ "agents": { "overrides": { "a": { "enabled": true } } } }',
    );
    expect(enableAgent('a', [workspace, user]).status).toBe('no-op');
  });
});

describe('disableAgent', () => {
  it('sets enabled: false in the target file (created if missing), and reports the other scope', () => {
    const { user, workspace } = scopeLayout('{ "agents": { "overrides": { "a": { "enabled": false } } } }');
    const r = disableAgent('a', workspace, user);
    expect(r).toMatchObject({ status: 'success', modified: [workspace], already: [user] });
    expect(overrides(workspace)).toEqual({ a: { enabled: false } });
  });

  it('already disabled there: no-op, nothing written', () => {
    const text = '{ "agents": { "overrides": { "a": { "enabled": false } } } } // keep';
    const { user } = scopeLayout(text);
    expect(disableAgent('a', user, undefined).status).toBe('no-op');
    expect(readFileSync(user.path, 'utf8')).toBe(text);
  });
});

describe("agentToggleFeedback: Gemini CLI 0.61's wording (the workspace is called project)", () => {
  const u: ScopeFile = { scope: 'user', path: '/h/s.json' };
  const w: ScopeFile = { scope: 'workspace', path: '/p/s.json' };
  it('each outcome', () => {
    expect(agentToggleFeedback({ status: 'no-op', action: 'enable', name: 'a', modified: [], already: [w, u] })).toBe(
      'Agent "a" is already enabled.',
    );
    expect(agentToggleFeedback({ status: 'success', action: 'disable', name: 'a', modified: [w], already: [] })).toBe(
      'Agent "a" disabled by setting it to disabled in project (/p/s.json) settings.',
    );
    expect(agentToggleFeedback({ status: 'success', action: 'disable', name: 'a', modified: [w], already: [u] })).toBe(
      'Agent "a" is now disabled in both project (/p/s.json) and user (/h/s.json) settings.',
    );
    expect(agentToggleFeedback({ status: 'success', action: 'enable', name: 'a', modified: [w, u], already: [] })).toBe(
      'Agent "a" enabled by setting it to enabled in project (/p/s.json) and user (/h/s.json) settings.',
    );
  });
});

describe('currentOverrides', () => {
  it('the files as they are now over the start-up settings: workspace over user over merged, name by name', () => {
    const { user, workspace } = scopeLayout(
      '{ "agents": { "overrides": { "a": { "enabled": false }, "b": { "runConfig": { "maxTurns": 2 } } } } }',
      '{ "agents": { "overrides": { "a": { "enabled": true } } } }',
    );
    const merged = {
      ui: { theme: 'x' },
      agents: { other: 1, overrides: { b: { enabled: false }, c: { enabled: true } } },
    };
    expect(currentOverrides(merged, [workspace, user])).toEqual({
      ui: { theme: 'x' },
      agents: {
        other: 1,
        overrides: { a: { enabled: true }, b: { enabled: false, runConfig: { maxTurns: 2 } }, c: { enabled: true } },
      },
    });
    expect(merged.agents.overrides).toEqual({ b: { enabled: false }, c: { enabled: true } });
  });
});
