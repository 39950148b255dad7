import { describe, expect, it } from 'vitest';
import { failed, plainText } from '../../../host/builtin-commands/output.js';
import {
  BUILTIN_COMMAND_NAMES,
  BUILTIN_COMMANDS,
  builtinsFor,
  findBuiltin,
  notHere,
} from '../../../host/builtin-commands/registry.js';

describe('the built-in command registry', () => {
  it('names each command once; an alias finds its command and is reserved, never listed', () => {
    const names = BUILTIN_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    expect(findBuiltin('dir')?.name).toBe('directory');
    expect(findBuiltin('EXIT')?.name).toBe('quit');
    // Gemini CLI 0.61's other names.
    expect(findBuiltin('new')?.name).toBe('clear');
    expect(findBuiltin('compact')?.name).toBe('compress');
    expect(findBuiltin('summarize')?.name).toBe('compress');
    expect(findBuiltin('nosuch')).toBeUndefined();
    expect(BUILTIN_COMMAND_NAMES).toEqual(expect.arrayContaining(['dir', '?', 'exit', 'agents', 'tasks']));
    expect(builtinsFor('chat').map((c) => c.name)).not.toContain('exit');
  });

  it('says where a command runs when a front-end does not run it', () => {
    expect(notHere(findBuiltin('theme')!, '/theme dark')).toBe(
      '/theme dark is only available in the interactive chat.',
    );
    expect(notHere(findBuiltin('compress')!, '/compress')).toBe(
      '/compress is only available in the interactive chat and editors (ACP).',
    );
    expect(builtinsFor('headless').map((c) => c.name)).not.toContain('compress');
  });
});

describe('structured output as plain text', () => {
  it('one block a line, items indented under headings, failures marked', () => {
    const out = [
      { kind: 'heading', text: 'MCP servers' },
      { kind: 'item', icon: '●', name: 'fs', note: 'connected', detail: '7 tools' },
      { kind: 'item', name: 'read_file', indent: 1 },
      { kind: 'hint', text: 'that is all' },
    ] as const;
    expect(plainText([...out])).toBe('MCP servers\n  ● fs connected — 7 tools\n    read_file\nthat is all\n');
    expect(failed([...out])).toBe(false);
    expect(failed([{ kind: 'error', text: 'No memory server is connected.' }])).toBe(true);
  });
});
