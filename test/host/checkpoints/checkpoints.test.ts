import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpointer, RESTORED_CALL_TEXT } from '../../../host/checkpoints/checkpointer.js';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  });

describe('checkpoints', () => {
  const endpoint = scriptedEndpoints();

  it('--checkpointing snapshots before an approved edit in a shadow repo; restore puts files back; the user repo is untouched', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('a.txt', 'one\n');
    ws.file('.gitignore', 'ignored.log\n');
    ws.file('ignored.log', 'keep me\n');
    git(ws.cwd, 'init', '-q');
    git(ws.cwd, 'add', '-A');
    git(ws.cwd, 'commit', '-qm', 'user commit');
    const before = {
      head: git(ws.cwd, 'rev-parse', 'HEAD'),
      refs: git(ws.cwd, 'for-each-ref'),
      index: readFileSync(join(ws.cwd, '.git', 'index')),
    };

    const ep = await endpoint(
      reply.calls({
        id: 'w1',
        name: 'filesystem__write_file',
        args: { file_path: join(ws.cwd, 'a.txt'), content: 'two\n' },
      }),
      reply.text('Changed.'),
    );
    const r = await runHost(['--checkpointing', '--approval-mode', 'auto_edit', '-p', 'change a.txt'], {
      ws,
      url: ep.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(ws.cwd, 'a.txt'), 'utf8')).toBe('two\n');

    // The user's repository saw nothing: same HEAD, refs and index; only the edit shows as a change.
    expect(git(ws.cwd, 'rev-parse', 'HEAD')).toBe(before.head);
    expect(git(ws.cwd, 'for-each-ref')).toBe(before.refs);
    expect(readFileSync(join(ws.cwd, '.git', 'index')).equals(before.index)).toBe(true);
    expect(git(ws.cwd, 'status', '--porcelain').trim()).toBe('M a.txt');

    const temp = defaultProjectTempDir(ws.cwd, {}, ws.home);
    expect(existsSync(join(temp, 'checkpoints', 'git', 'HEAD'))).toBe(true);
    expect(readdirSync(join(temp, 'checkpoints')).filter((n) => n.endsWith('.json'))).toHaveLength(1);

    writeFileSync(join(ws.cwd, 'new-after.txt'), 'created later\n');
    const cp = new Checkpointer({ projectRoot: ws.cwd, projectTempDir: temp, lookup: () => undefined });
    const [record] = cp.list();
    expect(record).toMatchObject({ tool: { name: 'filesystem__write_file' }, file: join(ws.cwd, 'a.txt') });
    expect(record!.history[0]!.parts![0]!.text).toBe('change a.txt');
    const { history } = await cp.restore('1');
    expect(readFileSync(join(ws.cwd, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(ws.cwd, 'new-after.txt'))).toBe(false);
    expect(readFileSync(join(ws.cwd, 'ignored.log'), 'utf8')).toBe('keep me\n');
    expect(JSON.stringify(history.at(-1))).toContain(RESTORED_CALL_TEXT);
    expect(git(ws.cwd, 'rev-parse', 'HEAD')).toBe(before.head);
    expect(git(ws.cwd, 'status', '--porcelain').trim()).toBe('');
  });

  it('without checkpointing, or without edits, nothing is snapshotted', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('a.txt', 'one\n');
    const ep = await endpoint(
      reply.calls({ id: 'g', name: 'filesystem__glob', args: { pattern: '*' } }),
      reply.text('Looked.'),
      reply.calls({
        id: 'w',
        name: 'filesystem__write_file',
        args: { file_path: join(ws.cwd, 'a.txt'), content: 'x\n' },
      }),
      reply.text('Wrote.'),
    );
    expect((await runHost(['--checkpointing', '-p', 'look'], { ws, url: ep.url })).code).toBe(0);
    expect((await runHost(['--approval-mode', 'auto_edit', '-p', 'write'], { ws, url: ep.url })).code).toBe(0);
    expect(existsSync(join(defaultProjectTempDir(ws.cwd, {}, ws.home), 'checkpoints'))).toBe(false);
  });
});
