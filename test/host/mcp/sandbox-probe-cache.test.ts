import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResolvedServerConfig } from '../../../host/config/servers.js';
import { StderrTail } from '../../../host/mcp/stderr-tail.js';
import { createTransport } from '../../../host/mcp/transports.js';
import { REPO } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

/**
 * The bubblewrap probe behind checkSandbox is a blocking spawn: a sandboxed server's restarts reuse
 * its first success. A logging `bwrap` in front of the real one counts the probes (`… true`).
 */

const realBwrap = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim();
const REF_FS = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

describe.skipIf(!realBwrap)('sandboxed stdio server: the bubblewrap probe', () => {
  const bin = tempDir('sbx-probe-bin-');
  const ws = tempDir('sbx-probe-ws-');
  const log = join(bin, 'calls.log');
  const savedPath = process.env.PATH;
  writeFileSync(join(bin, 'bwrap'), `#!/bin/sh\necho "$*" >> ${log}\nexec ${realBwrap} "$@"\n`);
  chmodSync(join(bin, 'bwrap'), 0o755);
  writeFileSync(log, '');
  process.env.PATH = `${bin}:${savedPath}`;
  afterAll(() => {
    process.env.PATH = savedPath;
  });

  it('runs once for three (re)starts, and the server still runs confined', async () => {
    const config = {
      alias: 'fsx',
      builtIn: false,
      trust: false,
      transport: 'stdio',
      command: process.execPath,
      args: [REF_FS, ws],
      cwd: ws,
      timeoutMs: 10_000,
      sandbox: { allowWrite: [], allowNet: [], secrets: [] },
    } as unknown as ResolvedServerConfig;
    for (let i = 0; i < 3; i++) {
      const t = await createTransport(config, 'stdio', new StderrTail());
      const client = new Client({ name: 't', version: '1' });
      await client.connect(t);
      const r = await client.callTool({ name: 'write_file', arguments: { path: join(ws, `f${i}.txt`), content: 'x' } });
      expect(JSON.stringify(r.content)).toMatch(/read-only|EROFS/i);
      await client.close();
    }
    const probes = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => / true$/.test(l));
    expect(probes).toHaveLength(1);
  });
});
