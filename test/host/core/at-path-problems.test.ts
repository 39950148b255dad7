import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPathProblems } from '../../../host/core/at-path-check.js';
import { MAX_FILE_BYTES } from '../../../protocol/file-limits.js';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';

describe('@path problems', () => {
  const endpoint = scriptedEndpoints();

  function setup() {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('notes.md', '# notes\n');
    const big = ws.file('big.log', '');
    truncateSync(big, MAX_FILE_BYTES + 1);
    const outside = join(tempDir('outside-'), 'secret.txt');
    writeFileSync(outside, 'not yours\n');
    return { ws, outside };
  }

  it('outside the workspace and too big: plain message naming each, exit 42, no model request', async () => {
    const { ws, outside } = setup();
    const ep = await endpoint(reply.text('never'));
    const r = await runHost(['-p', `compare @missing.md, @${outside} and @big.log with @notes.md`], {
      ws,
      url: ep.url,
    });
    expect(r.code, r.stderr).toBe(42);
    // A name with no file behind it is a word, not a problem: only the unreadable paths are named.
    expect(r.stderr).not.toContain('@missing.md:');
    expect(r.stderr).toContain(`@${outside}: outside the workspace`);
    expect(r.stderr).toMatch(/@big\.log: too big to read \(20 MB; the limit is 20 MB\)/);
    expect(r.stderr).not.toContain('@notes.md');
    expect(r.stderr).not.toMatch(/\*\*|`/);
    expect(ep.requests).toHaveLength(0);
  });

  it('a readable file, a directory, a glob, an e-mail address, a word and a passive call are not problems', () => {
    const { ws } = setup();
    mkdirSync(join(ws.cwd, 'src'));
    const text =
      'see @notes.md @src/ @src/**/*.ts mail me@example.com, ping @alice and @filesystem__glob({"pattern":"x"})';
    expect(findPathProblems(text, [ws.cwd], ['filesystem'])).toEqual([]);
    expect(findPathProblems('@filesystem:file:///x', [ws.cwd], ['filesystem'])).toEqual([]);
  });

  it('a link inside the workspace that leads outside is outside', async () => {
    const { ws, outside } = setup();
    const { symlinkSync } = await import('node:fs');
    symlinkSync(outside, join(ws.cwd, 'innocent.txt'));
    expect(findPathProblems('read @innocent.txt', [ws.cwd])).toEqual([
      { path: 'innocent.txt', problem: expect.stringContaining('outside the workspace') },
    ]);
  });
});
