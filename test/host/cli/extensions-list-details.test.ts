import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONLY, runHost, workspace } from '../../helpers/run-host.js';
import { tempDir } from '../../helpers/tmp.js';
import { writeDemoExtension } from '../extensions/extension-fixture.js';

describe('extensions and mcp subcommands as a user manages them', () => {
  it('extensions list shows enablement per scope, the skills and the commands an extension brings', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const src = writeDemoExtension(join(tempDir('gmc-ext-list-'), 'demo-ext'), { noSettings: true });
    expect((await runHost(['extensions', 'install', src, '--consent'], { ws, stdin: '\n' })).code).toBe(0);
    expect((await runHost(['extensions', 'disable', 'demo-ext', '--scope', 'workspace'], { ws })).code).toBe(0);
    const r = await runHost(['extensions', 'list'], { ws });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(' Enabled (User): true');
    expect(r.stdout).toContain(' Enabled (Workspace): false');
    expect(r.stdout).toContain(' Agent skills:\n  greeter: Greets people warmly');
    expect(r.stdout).toContain(' Commands:\n  /demo:hello');
  });

  it('extensions --help answers with exit 0, as mcp --help does; mcp alone names every subcommand', async () => {
    const ws = workspace();
    const help = await runHost(['extensions', '--help'], { ws });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('install <path | git URL>');
    expect((await runHost(['mcp', '--help'], { ws })).code).toBe(0);
    const bare = await runHost(['mcp'], { ws });
    expect(bare.code).toBe(42);
    for (const sub of ['list', 'add', 'remove', 'enable', 'disable', 'resources', 'read', 'prompts', 'auth', 'import'])
      expect(bare.stderr.split('\n')[0]).toContain(sub);
  });
});
