import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHooks } from '../../../host/hooks/hook-config.js';
import { HookSystem } from '../../../host/hooks/hook-system.js';
import { loadPolicyFiles } from '../../../host/policy/policy-files.js';
import type { UiRuntime } from '../../../host/ui/backend-types.js';
import { runSlash } from '../../../host/ui/slash-commands/slash-commands.js';
import { parseSlash } from '../../../host/ui/slash-commands/slash-parse.js';
import { createPalette } from '../../../host/ui/text/palette.js';
import { tempDir } from '../../helpers/tmp.js';

const p = createPalette(0);

describe('/hooks and /policies list what is in force and where it comes from', () => {
  const dir = tempDir('gmc-cfgcmd-');
  const user = join(dir, 'settings.json');
  writeFileSync(
    user,
    JSON.stringify({
      hooks: {
        BeforeTool: [
          { matcher: 'write_file', hooks: [{ type: 'command', name: 'guard', command: 'true', timeout: 500 }] },
        ],
        Bogus: [],
      },
    }),
  );
  const ext = join(dir, 'ext');
  mkdirSync(join(ext, 'hooks'), { recursive: true });
  writeFileSync(
    join(ext, 'hooks', 'hooks.json'),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hi', timeout: 5 }] }] },
    }),
  );
  const hooks = loadHooks([
    { path: user, source: 'user' },
    { path: ext, folder: true, source: 'extension:demo' },
  ]);
  const pol = join(dir, 'policies');
  mkdirSync(pol);
  writeFileSync(join(pol, 'a.toml'), '[[rule]]\ntoolName = "glob"\ndecision = "deny"\npriority = 7\n');
  // A file with an invalid rule is rejected whole.
  writeFileSync(
    join(pol, 'b.toml'),
    '[[rule]]\ntoolName = "read_file"\ndecision = "deny"\npriority = 1\n\n[[rule]]\ndecision = "allow"\n',
  );
  const policies = loadPolicyFiles([{ path: pol, tier: 'user' }]);
  const rt = {
    hooks: new HookSystem({ hooks: hooks.hooks, cwd: dir, env: {}, notify: () => {} }),
    policies,
  } as unknown as UiRuntime;

  /** What the chat prints for `/name`. */
  const show = async (name: string): Promise<string> => {
    const printed: string[] = [];
    const ctx = {
      runtime: rt,
      palette: p,
      print: (t: string) => printed.push(t),
      error: (t: string) => printed.push(t),
    };
    expect(await runSlash(parseSlash(`/${name}`)!, ctx as never)).toBe(true);
    return printed.join('\n');
  };

  it('reads both formats and extension folders; reports an unknown event', async () => {
    expect(hooks.problems).toEqual([`${user}: unknown hook event "Bogus" (Gemini CLI format)`]);
    const text = await show('hooks');
    expect(text).toContain('Hooks (2)');
    expect(text).toContain(`BeforeTool [write_file] guard — Gemini CLI format, 500 ms, user: ${user}`);
    expect(text).toContain(
      `PreToolUse → BeforeTool [Bash] echo hi — Claude Code format, 5000 ms, extension:demo: ${join(ext, 'hooks', 'hooks.json')}`,
    );
  });

  it('lists rules by priority with their origin, and what did not load', async () => {
    const text = await show('policies');
    expect(text).toContain('Policy rules (1)');
    expect(text).toContain('deny     4.007 toolName=glob — User: a.toml:1');
    expect(text).toMatch(/not loaded: .*b\.toml:6: rule #2/);
    expect(text).not.toContain('toolName=read_file');
  });
});
