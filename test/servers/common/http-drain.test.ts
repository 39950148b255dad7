import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import { connectHttp, startHttpServer } from './http-server.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('drain on SIGTERM', () => {
  it('a write waiting on its confirmation gets its real answer; readiness and new sessions get 503; exit 0', async () => {
    const root = tempDir();
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root, '--shutdown-grace', '20'], children);
    let asked!: () => void;
    const confirmationAsked = new Promise<void>((r) => (asked = r));
    let answer!: (r: ElicitResult) => void;
    const client = await connectHttp(srv.url, () => {
      asked();
      return new Promise<ElicitResult>((r) => (answer = r));
    });
    const target = join(root, 'drained.txt');
    const call = client.callTool({ name: 'write_file', arguments: { file_path: target, content: 'kept\n' } });
    await confirmationAsked;

    const t0 = Date.now();
    srv.child.kill('SIGTERM');
    await waitFor(async () => (await fetch(`${srv.base}/readyz`)).status === 503, 'readiness to turn 503');
    const fresh = await fetch(srv.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INIT),
    });
    expect(fresh.status).toBe(503);
    expect(await fresh.text()).toMatch(/shutting down/);
    expect((await fetch(`${srv.base}/healthz`)).status).toBe(200);

    // The user answers after the signal: the call must still complete and write the file.
    answer({ action: 'accept', content: { decision: 'proceed_once' } });
    const result = await call;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe('kept\n');
    expect(await srv.exited).toBe(0);
    console.log(`drain: confirmation answered after SIGTERM, call succeeded, exit 0 after ${Date.now() - t0} ms`);
    expect(srv.stderr()).toMatch(/draining: 1 call\(s\) in flight/);
  });

  it('draining, a session takes no new call (404: the client starts a session elsewhere) but still takes the answer its call waits for', async () => {
    const root = tempDir();
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root, '--shutdown-grace', '20'], children);
    let asked!: () => void;
    const confirmationAsked = new Promise<void>((r) => (asked = r));
    let answer!: (r: ElicitResult) => void;
    const client = await connectHttp(srv.url, () => {
      asked();
      return new Promise<ElicitResult>((r) => (answer = r));
    });
    const target = join(root, 'kept.txt');
    const call = client.callTool({ name: 'write_file', arguments: { file_path: target, content: 'kept\n' } });
    await confirmationAsked;
    srv.child.kill('SIGTERM');
    await waitFor(async () => (await fetch(`${srv.base}/readyz`)).status === 503, 'readiness to turn 503');

    const late = await client
      .callTool({ name: 'write_file', arguments: { file_path: join(root, 'late.txt'), content: 'late\n' } })
      .then(
        () => 'answered',
        (err: Error & { code?: number }) => `${err.code}: ${err.message}`,
      );
    expect(late).toMatch(/^404: .*Session not found/);
    expect(existsSync(join(root, 'late.txt'))).toBe(false);

    answer({ action: 'accept', content: { decision: 'proceed_once' } });
    expect((await call).isError).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe('kept\n');
    expect(await srv.exited).toBe(0);
  });

  it('a call still unfinished when the grace period ends is closed and the process exits 0', async () => {
    const root = tempDir();
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root, '--shutdown-grace', '0.5'], children);
    let asked!: () => void;
    const confirmationAsked = new Promise<void>((r) => (asked = r));
    const client = await connectHttp(srv.url, () => {
      asked();
      return new Promise<ElicitResult>(() => undefined);
    });
    const call = client
      .callTool({ name: 'write_file', arguments: { file_path: join(root, 'never.txt'), content: 'x' } })
      .catch((err: Error) => err);
    await confirmationAsked;
    srv.child.kill('SIGTERM');
    expect(await srv.exited).toBe(0);
    expect(srv.stderr()).toMatch(/grace period over; closing 1 unfinished call/);
    void call;
  });
});
