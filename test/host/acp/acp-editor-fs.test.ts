import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { type EditorFs, startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();

/** The text the model was sent back for its last call. */
function lastToolAnswer(body: { contents: { parts: { functionResponse?: { response: unknown } }[] }[] }): string {
  const parts = body.contents.flatMap((c) => c.parts.filter((p) => p.functionResponse));
  return JSON.stringify(parts.at(-1)?.functionResponse?.response);
}

describe("the editor's file system (fs/read_text_file, fs/write_text_file)", () => {
  it("a read is served from the editor's unsaved buffer, not the disk", async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = ws.file('buf.txt', 'saved on disk\n');
    const ep = await endpoint(
      reply.calls({ id: 'r1', name: 'filesystem__read_file', args: { absolute_path: file } }),
      reply.text('Read it.'),
    );
    const fs: EditorFs = { buffers: new Map([[file, 'unsaved buffer text\n']]), writes: [] };
    const run = startAcp({ ws, url: ep.url, fs });
    try {
      const sessionId = await run.open(ws.cwd);
      await run.prompt(sessionId, 'read');
      const answer = lastToolAnswer(ep.requestsOf('streamGenerateContent').at(-1)!.body);
      expect(answer).toContain('unsaved buffer text');
      expect(answer).not.toContain('saved on disk');
    } finally {
      await run.close();
    }
  });

  it('an approved edit is computed on the buffer and lands through fs/write_text_file', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = ws.file('edit.txt', 'one\ntwo\n');
    const ep = await endpoint(
      reply.calls({
        id: 'e1',
        name: 'filesystem__replace',
        args: { file_path: file, old_string: 'TWO', new_string: 'deux' },
      }),
      reply.text('Edited.'),
    );
    // The buffer differs from disk: the edit only applies to the buffer's text.
    const fs: EditorFs = { buffers: new Map([[file, 'one\nTWO\n']]), writes: [] };
    const run = startAcp({ ws, url: ep.url, fs, permission: () => 'allow_once' });
    try {
      const sessionId = await run.open(ws.cwd);
      await run.prompt(sessionId, 'edit');
      expect(run.permissions[0]?.toolCall.content?.[0]).toMatchObject({ type: 'diff', oldText: 'one\nTWO\n' });
      expect(fs.writes).toEqual([{ path: file, content: 'one\ndeux\n' }]);
      // Landed in the editor (which saves when its user does), not behind its back on disk.
      expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
      expect(run.updatesOf(sessionId, 'tool_call_update').at(-1)).toMatchObject({ status: 'completed' });
    } finally {
      await run.close();
    }
  });

  it('a path outside the workspace is refused before the editor is asked', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const ep = await endpoint(
      reply.calls({ id: 'r1', name: 'filesystem__read_file', args: { absolute_path: '/etc/hostname' } }),
      reply.text('ok'),
    );
    const fs: EditorFs = { buffers: new Map([['/etc/hostname', 'secret buffer']]), writes: [] };
    const run = startAcp({ ws, url: ep.url, fs });
    try {
      const sessionId = await run.open(ws.cwd);
      await run.prompt(sessionId, 'read');
      const answer = lastToolAnswer(ep.requestsOf('streamGenerateContent').at(-1)!.body);
      expect(answer).not.toContain('secret buffer');
      expect(answer).toMatch(/workspace/i);
    } finally {
      await run.close();
    }
  });
});
