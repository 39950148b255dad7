import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { StdioServer } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURES, startBridge } from './bridge.js';
import { waitFor } from '../helpers/wait.js';

const dir = tempDir('bridge-refresh-');
let srv: StdioServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** Atomic, so a discovery run never reads a half-written file. */
function writeTools(file: string, names: string[]): void {
  const decls = names.map((name) => ({ name, parametersJsonSchema: { type: 'object' } }));
  writeFileSync(`${file}.tmp`, JSON.stringify([{ functionDeclarations: decls }]));
  renameSync(`${file}.tmp`, file);
}

async function start(file: string, extra: string[] = []) {
  srv = await startBridge(`node ${join(FIXTURES, 'discover-file.mjs')} ${file}`, extra);
  let notified = 0;
  srv.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void notified++);
  const names = async () => (await srv!.client.listTools()).tools.map((t) => t.name);
  return { names, notified: () => notified };
}

describe('re-discovery', () => {
  it('re-runs discovery on SIGHUP and sends list_changed only when the set changed', async () => {
    const file = join(dir, 'hup.json');
    writeTools(file, ['one']);
    const s = await start(file);
    expect(await s.names()).toEqual(['one']);

    writeTools(file, ['one', 'two']);
    process.kill(srv!.pid()!, 'SIGHUP');
    await waitFor(() => s.notified() === 1, 'list_changed after SIGHUP');
    expect(await s.names()).toEqual(['one', 'two']);

    // Same output again: discovery runs, but nothing changed, so no notification.
    const runs = () => srv!.stderr().split('SIGHUP: re-running discovery').length - 1;
    process.kill(srv!.pid()!, 'SIGHUP');
    await waitFor(() => runs() === 2 && srv!.stderr().split('discovery: 2 tool(s)').length - 1 === 2, 'second run');
    // A round trip after the run: a notification it sent would have arrived before this answer.
    expect(await s.names()).toEqual(['one', 'two']);
    expect(s.notified()).toBe(1);

    // Broken output leaves no tools (and says why), which is a change too.
    writeFileSync(file, 'garbage');
    process.kill(srv!.pid()!, 'SIGHUP');
    await waitFor(() => s.notified() === 2, 'list_changed after a failed discovery');
    expect(await s.names()).toEqual([]);
  });

  it('re-runs discovery every --refresh-s seconds', async () => {
    const file = join(dir, 'timer.json');
    writeTools(file, ['first']);
    const s = await start(file, ['--refresh-s', '1']);
    expect(await s.names()).toEqual(['first']);
    writeTools(file, ['second']);
    await waitFor(() => s.notified() >= 1, 'list_changed from the refresh timer');
    expect(await s.names()).toEqual(['second']);
  });
});
