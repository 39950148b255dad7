import { spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ENTRY, requireBuilt } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { CALL, FIXTURES } from './bridge.js';
import { waitFor } from '../helpers/wait.js';

const dir = tempDir('bridge-http-');

function writeTools(file: string, names: string[]): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(names.map((name) => ({ name }))));
  renameSync(`${file}.tmp`, file);
}

it('serves every HTTP session from one catalog and tells each of them about changes', async () => {
  const file = join(dir, 'tools.json');
  writeTools(file, ['alpha']);
  const child = spawn(
    process.execPath,
    [
      requireBuilt(ENTRY.discoveryBridge),
      '--transport',
      'http',
      '--port',
      '0',
      '--discovery-command',
      `node ${join(FIXTURES, 'discover-file.mjs')} ${file}`,
      '--call-command',
      CALL,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    await exercise(child, file);
  } finally {
    child.kill('SIGTERM');
  }
});

async function exercise(child: ReturnType<typeof spawn>, file: string): Promise<void> {
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await waitFor(() => /listening on (http:\/\/\S+)/.test(stderr), 'the HTTP listener');
  const url = new URL(/listening on (http:\/\/\S+)/.exec(stderr)![1]);

  const clients: Client[] = [];
  const notified = [0, 0];
  for (const i of [0, 1]) {
    const client = new Client({ name: `c${i}`, version: '1' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void notified[i]++);
    await client.connect(new StreamableHTTPClientTransport(url));
    clients.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['alpha']);
  }
  expect(stderr.split('discovery: 1 tool(s)').length - 1).toBe(1);

  writeTools(file, ['alpha', 'beta']);
  child.kill('SIGHUP');
  await waitFor(() => notified[0] === 1 && notified[1] === 1, 'list_changed on both sessions');
  for (const client of clients) {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['alpha', 'beta']);
    await client.close();
  }
}
