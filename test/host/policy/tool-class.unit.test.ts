import { describe, expect, it } from 'vitest';
import { classifyTool } from '../../../host/policy/tool-class.js';

const tool = (serverAlias: string, toolName: string, builtIn: boolean, readOnly = false) => ({
  serverAlias,
  toolName,
  builtIn,
  readOnly,
});

describe('classifyTool: how policy sees a tool', () => {
  it('built-in tools have fixed classes', () => {
    expect(classifyTool(tool('filesystem', 'read_file', true))).toBe('read-only');
    expect(classifyTool(tool('filesystem', 'replace', true))).toBe('edit');
    expect(classifyTool(tool('shell', 'run_shell_command', true))).toBe('exec');
    expect(classifyTool(tool('web', 'web_fetch', true))).toBe('info');
    expect(classifyTool(tool('memory', 'save_memory', true))).toBe('memory');
  });

  it('the same names on a server that is not built in get no built-in class', () => {
    expect(classifyTool(tool('filesystem', 'replace', false))).toBe('external');
    expect(classifyTool(tool('shell', 'run_shell_command', false, true))).toBe('read-only');
  });

  it('discovered tools are external even when they claim to be read-only', () => {
    expect(classifyTool(tool('discovered', 'deploy', true, true))).toBe('external');
  });

  it('other tools are read-only only on a trusted read-only hint, else external', () => {
    expect(classifyTool(tool('github', 'search', false, true))).toBe('read-only');
    expect(classifyTool(tool('github', 'create_issue', false))).toBe('external');
  });
});
