import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveServers } from '../../../host/config/servers.js';
import { McpClientManager } from '../../../host/mcp/client-manager.js';
import { DEFERRED_CA_CERTS } from '../../../protocol/deferred-ca-certs.js';
import { META } from '../../../protocol/meta.js';
import { textOf } from '../../helpers/mcp.js';
import { requireBuilt, ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const managers: McpClientManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

/** The environment a process was started with (what Node read at its start), as name → value. */
function startEnvironment(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

describe("the built-in shell server and the user's NODE_EXTRA_CA_CERTS", () => {
  it('its commands see the variable as set, while the server started without it (Node parsed no file)', async () => {
    requireBuilt(ENTRY.shell);
    const dir = tempDir('gmc-ca-');
    // Any file: the server never opens it, and printf does not read it either.
    const certs = join(dir, 'corp-ca.pem');
    writeFileSync(certs, '');
    const env = { PATH: process.env.PATH!, HOME: dir, NODE_EXTRA_CA_CERTS: certs };
    const shell = resolveServers({}, { cwd: dir, roots: [dir], projectTempDir: dir, env }).find(
      (s) => s.alias === 'shell',
    )!;
    const m = new McpClientManager({ servers: [shell], roots: [dir] });
    managers.push(m);
    m.start();
    const r = await m.callTool(
      'shell',
      'run_shell_command',
      {
        command: `printf '[%s|%s]' "$NODE_EXTRA_CA_CERTS" "\${${DEFERRED_CA_CERTS}-unset}"`,
        dir_path: dir,
      },
      { meta: { [META.preapproved]: true } },
    );
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toContain(`[${certs}|unset]`);
    const started = startEnvironment(m.pid('shell')!);
    expect(started.has('NODE_EXTRA_CA_CERTS')).toBe(false);
    expect(started.get(DEFERRED_CA_CERTS)).toBe(certs);
  });
});
