import { describe, expect, it } from 'vitest';
import { matchRules, parseRule, parseRules } from '../../../host/policy/rules.js';

const shell = {
  exposedName: 'shell__run_shell_command',
  serverAlias: 'shell',
  toolName: 'run_shell_command',
  builtIn: true,
};

describe('tool rules (tools.allowed, tools.exclude, tools.core, --allowed-tools)', () => {
  it('parses the prefixed, the Gemini CLI and the wildcard forms', () => {
    expect(parseRule('shell__run_shell_command(git log)')).toEqual({
      raw: 'shell__run_shell_command(git log)',
      name: 'shell__run_shell_command',
      args: 'git log',
    });
    expect(parseRule('run_shell_command')).toEqual({ raw: 'run_shell_command', name: 'run_shell_command' });
    expect(parseRule('github__*')).toEqual({ raw: 'github__*', name: 'github__*' });
  });

  it('drops empty entries and non-strings from a hand-written list', () => {
    expect(parseRules(['', '  ', 'read_file', 42 as never]).map((r) => r.name)).toEqual(['read_file']);
    expect(parseRules(undefined)).toEqual([]);
  });

  it('splits matching rules into whole-tool rules and shell prefixes', () => {
    const rules = parseRules(['run_shell_command(git)', 'shell__run_shell_command(npm test)', 'read_file']);
    expect(matchRules(rules, shell)).toEqual({ whole: false, prefixes: ['git', 'npm test'] });
    expect(matchRules(parseRules(['shell__*']), shell)).toEqual({ whole: true, prefixes: [] });
    // `name()` with nothing inside names the whole tool.
    expect(matchRules(parseRules(['run_shell_command()']), shell).whole).toBe(true);
    expect(matchRules(parseRules(['web__*']), shell)).toEqual({ whole: false, prefixes: [] });
  });

  it('a bare name covers only the built-in of that name, never a third-party tool', () => {
    const foreign = { ...shell, exposedName: 'other__run_shell_command', serverAlias: 'other', builtIn: false };
    expect(matchRules(parseRules(['run_shell_command']), foreign).whole).toBe(false);
    expect(matchRules(parseRules(['other__*']), foreign).whole).toBe(true);
  });
});
