import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS, BUILTIN_COMMAND_NAMES, builtinsFor } from '../../../host/builtin-commands/registry.js';
import type { CustomCommand } from '../../../host/custom-commands/custom-commands.js';
import { builtinView } from '../../../host/core/builtin-views.js';
import { CHAT_COMMANDS } from '../../../host/ui/slash-commands/chat-commands.js';
import { completionTable, runSlash } from '../../../host/ui/slash-commands/slash-commands.js';
import { parseSlash } from '../../../host/ui/slash-commands/slash-parse.js';
import { completeSlash } from '../../../host/ui/input/completion.js';
import type { UiRuntime } from '../../../host/ui/backend-types.js';
import { createPalette } from '../../../host/ui/text/palette.js';

const cmd = (name: string, description: string): CustomCommand => ({
  name,
  baseName: name,
  description,
  prompt: 'p',
  source: 'user',
  file: `/x/${name}.toml`,
  format: 'toml',
});

/** The parts of a runtime these views read: commands, skills, extensions and an empty server list. */
function runtime(): UiRuntime {
  return {
    manager: { states: () => [] },
    commands: { commands: [cmd('git:commit', 'Write a commit message'), cmd('user.help', 'Mine')], errors: [] },
    skills: [{ name: 'greeter', description: 'Greets', location: '/s/greeter/SKILL.md', body: 'b' }],
    extensions: [],
  } as unknown as UiRuntime;
}

describe('custom commands in the chat table', () => {
  it('one registry: every built-in and alias is a reserved name; each chat built-in has a view or a chat handler', async () => {
    for (const c of BUILTIN_COMMANDS)
      for (const n of [c.name, ...(c.aliases ?? [])]) expect(BUILTIN_COMMAND_NAMES).toContain(n);
    const env = { runtime: runtime(), frontEnd: 'chat' as const, readMemory: async () => '' };
    const ACTIONS_ONLY = new Set(['quit', 'clear']); // the chat's own screen: handled before any table
    for (const c of builtinsFor('chat')) {
      const viewed = (await builtinView(c.name, [], env).catch(() => [])) !== undefined;
      expect(c.name in CHAT_COMMANDS || ACTIONS_ONLY.has(c.name) || viewed, c.name).toBe(true);
    }
    // The chat's handlers are for registered commands only: a name nobody lists would be unreachable by Tab.
    for (const name of Object.keys(CHAT_COMMANDS)) expect(builtinsFor('chat').map((c) => c.name)).toContain(name);
    // Every front-end's list comes from the same entries.
    expect(builtinsFor('headless').every((c) => builtinsFor('chat').includes(c))).toBe(true);
    expect(builtinsFor('acp').map((c) => c.name)).toContain('compress');
  });

  it('completion offers custom commands; /help lists them with descriptions', async () => {
    const table = completionTable(runtime());
    expect(completeSlash('/git', 4, table)?.candidates).toEqual(['/git:commit']);
    expect(completeSlash('/ext', 4, table)?.candidates).toEqual(['/extensions']);
    const help = (await show('/help')).join('\n');
    expect(help).toContain('/git:commit — Write a commit message');
    expect(help).toContain('/user.help — Mine');
    expect(help).toContain('/stats — session statistics');
  });

  it('/skills and /extensions print the lists', async () => {
    expect((await show('/skills')).pop()).toBe('greeter: Greets\n  /s/greeter/SKILL.md');
    expect((await show('/extensions')).pop()).toBe('No extensions installed.');
  });
});

/** What the chat prints for one typed command (no colours). */
async function show(typed: string): Promise<string[]> {
  const printed: string[] = [];
  const ctx = {
    runtime: runtime(),
    palette: createPalette(0),
    print: (t: string) => printed.push(t),
    error: (t: string) => printed.push(`ERR ${t}`),
    clear() {},
    exit() {},
    submitPrompt() {},
    runTool: async () => {},
    readMemory: async () => '',
  };
  expect(await runSlash(parseSlash(typed)!, ctx)).toBe(true);
  return printed;
}
