import { execFileSync } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedServerConfig } from '../../../host/config/servers.js';
import { listingKey } from '../../../host/mcp/listing-cache.js';
import { REPO } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const thirdParty = (env: Record<string, string>): ResolvedServerConfig => ({
  alias: 'tracker',
  builtIn: false,
  trust: false,
  transport: 'stdio',
  command: process.execPath,
  args: ['server.js'],
  env,
  cwd: REPO,
  timeoutMs: 60_000,
});

describe('listingKey', () => {
  const base = { PATH: '/usr/bin', HOME: '/home/u', TRACKER_URL: 'https://a.example' };

  it('stays the same from one terminal, tab or login to the next', () => {
    const tab1 = { ...base, _: '/usr/bin/gemini-mcp', OLDPWD: '/tmp', SHLVL: '1', TMUX_PANE: '%1' };
    const tab2 = {
      ...base,
      _: '/usr/local/bin/gemini-mcp',
      OLDPWD: '/home/u/src',
      SHLVL: '3',
      TMUX_PANE: '%7',
      SSH_CONNECTION: '10.0.0.2 52114 10.0.0.1 22',
      SSH_AUTH_SOCK: '/tmp/ssh-XYZ/agent.42',
      VSCODE_GIT_ASKPASS_MAIN: '/opt/code/askpass-main.js',
    };
    expect(listingKey(thirdParty(tab2))).toBe(listingKey(thirdParty(tab1)));
  });

  it('changes with any other variable, which may change what the server offers', () => {
    expect(listingKey(thirdParty({ ...base, TRACKER_URL: 'https://b.example' }))).not.toBe(
      listingKey(thirdParty(base)),
    );
    expect(listingKey(thirdParty({ ...base, TRACKER_BETA: '1' }))).not.toBe(listingKey(thirdParty(base)));
  });

  it('tells apart environments keyed one after another in one process, whatever their order', () => {
    const { TRACKER_URL: _dropped, ...less } = base;
    const keys = [
      listingKey(thirdParty(base)),
      listingKey(thirdParty({ ...base, TRACKER_URL: 'https://b.example' })),
      listingKey(thirdParty(less)),
      listingKey(thirdParty({ ...base, TRACKER_TOKEN_FILE: '/home/u/.tracker' })),
      listingKey(thirdParty({ ...base, HOME: '/home/v' })),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // Back to the first environment, in another order and with volatile names added: the first key again.
    const reordered = { TRACKER_URL: base.TRACKER_URL, HOME: base.HOME, PATH: base.PATH, SHLVL: '4' };
    expect(listingKey(thirdParty(reordered))).toBe(keys[0]);
    expect(listingKey(thirdParty({ ...base, TRACKER_URL: 'https://b.example' }))).toBe(keys[1]);
  });

  it('changes when a script named in the arguments changes, not when a named pipe or folder is touched', () => {
    const dir = tempDir('gmc-listing-key-');
    const script = join(dir, 'server.mjs');
    const pipe = join(dir, 'events.fifo');
    writeFileSync(script, 'export {};\n');
    execFileSync('mkfifo', [pipe]);
    const config = (): ResolvedServerConfig => ({
      ...thirdParty(base),
      args: [script, '--events', pipe, '--data', dir],
    });
    const before = listingKey(config());
    const later = new Date(Date.now() + 60_000);
    utimesSync(pipe, later, later);
    utimesSync(dir, later, later);
    expect(listingKey(config())).toBe(before);
    utimesSync(script, later, later);
    expect(listingKey(config())).not.toBe(before);
  });
});
