import { describe, expect, it } from 'vitest';
import { SessionRules } from '../../../host/policy/session-rules.js';

describe('SessionRules: "always" choices for this session', () => {
  it('allows a tool by its exposed name, or every tool of an allowed server', () => {
    const r = new SessionRules();
    expect(r.allows('fs__write_file', 'fs')).toBe(false);
    r.allowTool('fs__write_file');
    expect(r.allows('fs__write_file', 'fs')).toBe(true);
    expect(r.allows('fs__replace', 'fs')).toBe(false);
    r.allowServer('web');
    expect(r.allows('web__fetch', 'web')).toBe(true);
    expect(r.allows('webx__fetch', 'webx')).toBe(false);
  });

  it('keeps shell prefixes trimmed, once each, and ignores a blank one (it would cover every command)', () => {
    const r = new SessionRules();
    r.allowShellPrefix('  git log ');
    r.allowShellPrefix('git log');
    r.allowShellPrefix('   ');
    r.allowShellPrefix('');
    r.allowShellPrefix('npm test');
    expect(r.shellPrefixes()).toEqual(['git log', 'npm test']);
  });

  it('remembers memory files by exact path, and hands out copies of its prefixes', () => {
    const r = new SessionRules();
    r.allowMemoryFile('/home/u/.gemini/GEMINI.md');
    expect(r.hasMemoryFile('/home/u/.gemini/GEMINI.md')).toBe(true);
    expect(r.hasMemoryFile('/home/u/.gemini/../.gemini/GEMINI.md')).toBe(false);
    r.allowShellPrefix('ls');
    r.shellPrefixes().push('rm');
    expect(r.shellPrefixes()).toEqual(['ls']);
  });

  it('does not share choices between sessions', () => {
    const a = new SessionRules();
    a.allowServer('shell');
    expect(new SessionRules().allows('shell__run_shell_command', 'shell')).toBe(false);
  });
});
