import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { scriptedEndpoints } from '../../helpers/run-host.js';

/** Every file and folder below `dir` with its permission bits. */
function walk(dir: string, out: { path: string; dir: boolean; mode: number }[] = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    out.push({ path, dir: st.isDirectory(), mode: st.mode & 0o777 });
    if (st.isDirectory()) walk(path, out);
  }
  return out;
}

describe('private files under ~/.gemini/tmp', () => {
  const endpoint = scriptedEndpoints();

  it('with umask 022, saved tool outputs, sessions and checkpoints are 0600 in 0700 folders', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY('shell', 'filesystem'), general: { checkpointing: { enabled: true } } });
    ws.file('a.txt', 'alpha\n');
    const ep = await endpoint(
      reply.calls({ id: 's1', name: 'shell__run_shell_command', args: { command: 'seq 1 200000' } }),
      reply.calls({
        id: 'w1',
        name: 'filesystem__write_file',
        args: { file_path: join(ws.cwd, 'b.txt'), content: 'b' },
      }),
      reply.text('done'),
    );
    const env = { ...process.env, GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: ep.url };
    const child = spawn(
      'sh',
      ['-c', 'umask 022; exec "$0" "$@"', process.execPath, requireBuilt(ENTRY.host), '-p', 'go', '--yolo'],
      { cwd: ws.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    const entries = walk(join(ws.home, '.gemini', 'tmp'));
    const files = entries.filter((e) => !e.dir);
    expect(files.some((f) => f.path.includes('tool-outputs'))).toBe(true); // the shell's saved output
    expect(files.some((f) => f.path.includes('chats'))).toBe(true);
    expect(files.some((f) => /checkpoint|git/.test(f.path))).toBe(true);
    const open = entries.filter((e) => (e.dir ? e.mode !== 0o700 : (e.mode & 0o077) !== 0));
    expect(open.map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([]);
  });
});
