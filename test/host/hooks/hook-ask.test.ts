import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookSpec } from '../../../host/hooks/hook-config.js';
import { HookSystem } from '../../../host/hooks/hook-system.js';
import { toolHooks } from '../../../host/hooks/tool-hooks.js';
import type { ApprovalMode, ConfirmationRequest, Confirmer } from '../../../host/scheduler/types.js';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { type Harness, startHarness } from '../scheduler/scheduler-harness.js';
import { hook, records } from './record-hook.js';

/** A BeforeTool hook that answers `decision: "ask"`: the user is asked even where policy alone would allow. */
describe('a BeforeTool hook asking for confirmation (real scheduler, servers and hook process)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function start(mode: ApprovalMode, asked: ConfirmationRequest[]) {
    const dir = tempDir('gmc-hook-ask-');
    const log = join(dir, 'hooks.log');
    const spec: HookSpec = {
      event: 'BeforeTool',
      writtenEvent: 'BeforeTool',
      format: 'gemini',
      sequential: false,
      timeoutMs: 10_000,
      source: 'user',
      file: 'settings.json',
      command: hook(log, 'ask'),
    };
    const system = new HookSystem({ hooks: [spec], cwd: dir, env: process.env, notify: () => {} });
    const confirmer: Confirmer = {
      confirm: async (r) => {
        asked.push(r);
        return { decision: 'cancel' };
      },
    };
    h = await startHarness({
      servers: [{ alias: 'filesystem', entry: ENTRY.filesystem, args: ['--root', dir], builtIn: true }],
      policy: { approvalMode: mode },
      confirmer,
      projectTempDir: dir,
      hooks: toolHooks(system),
    });
    return { dir, log };
  }

  it('a read-only tool, which policy allows in every mode, is asked about', async () => {
    const asked: ConfirmationRequest[] = [];
    const { dir, log } = await start('default', asked);
    const [call] = await h!.run([{ name: 'filesystem__read_file', args: { absolute_path: join(dir, 'hooks.log') } }]);
    expect(records(log)).toHaveLength(1);
    expect(asked).toHaveLength(1);
    expect(call.status).toBe('cancelled');
  });

  it('in yolo a built-in that confirms in-call gets the host dialog, and nothing is written', async () => {
    const asked: ConfirmationRequest[] = [];
    const { dir } = await start('yolo', asked);
    const target = join(dir, 'out.txt');
    const [call] = await h!.run([{ name: 'filesystem__write_file', args: { file_path: target, content: 'x\n' } }]);
    expect(asked.map((r) => r.source)).toEqual(['pre-call']);
    expect(call.status).toBe('cancelled');
    expect(existsSync(target)).toBe(false);
  });
});
