import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMAND_NAMES } from '../../../host/custom-commands/builtin-names.js';
import type { CustomCommand } from '../../../host/custom-commands/custom-commands.js';
import {
  BUILTIN_COMMANDS,
  completionTable,
  helpText,
  runSlash,
} from '../../../host/ui/slash-commands/slash-commands.js';
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
  it('every built-in of the chat is a reserved name (custom commands of that name are renamed)', () => {
    for (const name of Object.keys(BUILTIN_COMMANDS)) expect(BUILTIN_COMMAND_NAMES).toContain(name);
  });

  it('completion offers custom commands; /help lists them with descriptions', () => {
    const table = completionTable(runtime());
    expect(completeSlash('/git', 4, table)?.candidates).toEqual(['/git:commit']);
    expect(completeSlash('/ext', 4, table)?.candidates).toEqual(['/extensions']);
    const help = helpText(runtime(), createPalette(0));
    expect(help).toContain('/git:commit  Write a commit message');
    expect(help).toContain('/user.help  Mine');
  });

  it('/skills and /extensions print the lists', async () => {
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
    expect(await runSlash(parseSlash('/skills')!, ctx)).toBe(true);
    expect(printed.pop()).toBe('greeter: Greets\n  /s/greeter/SKILL.md');
    expect(await runSlash(parseSlash('/extensions')!, ctx)).toBe(true);
    expect(printed.pop()).toBe('No extensions installed.');
  });
});
