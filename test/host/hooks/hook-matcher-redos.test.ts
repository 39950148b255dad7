import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { replay } from '../policy/policy-replay.js';
import { hook, records } from './record-hook.js';

describe('a hook matcher cannot hang the host', () => {
  it('matcher "((\\w+)+)+X" is tested in linear time; a plain matcher still picks its tool', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    ws.settings({
      ...ONLY('filesystem'),
      hooks: {
        BeforeTool: [
          // Against "write_file" a backtracking RegExp takes minutes: nested quantifiers, no X to find.
          { matcher: '((\\w+)+)+X', hooks: [{ type: 'command', name: 'never', command: hook(log, 'pass') }] },
          { matcher: 'write_file', hooks: [{ type: 'command', name: 'writes', command: hook(log, 'pass') }] },
        ],
      },
    });
    const target = join(ws.cwd, 'out.txt');
    const call = { functionCall: { id: 'w', name: 'write_file', args: { file_path: target, content: 'hi\n' } } };
    const { r, results } = await replay(ws, [call], ['--yolo']);
    expect(r.code, r.stderr).toBe(0);
    expect(results.w?.status).toBe('success');
    expect(readFileSync(target, 'utf8')).toBe('hi\n');
    expect(records(log).map((g) => g.payload.tool_name)).toEqual(['write_file']);
  }, 20_000);
});
