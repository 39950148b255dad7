import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, spawnHost, workspace } from '../../helpers/run-host.js';

/**
 * `gemini-mcp -p … | head -c 5`: the reader takes a few bytes and closes the pipe while the host still
 * writes. The host ends quietly (exit 141, as after SIGPIPE) with no EPIPE stack trace, in every format.
 */
describe('headless output to a pipe closed early', () => {
  const endpoint = scriptedEndpoints();
  // Several pipe buffers' worth, streamed in chunks, so the host is still writing when the reader leaves.
  // (Distinct words throughout, so loop detection does not stop the stream early.)
  const chunks = Array.from(
    { length: 40 },
    (_, i) => `${Array.from({ length: 3000 }, (_, k) => (i * 3000 + k).toString(36)).join(' ')}\n`,
  );

  for (const format of ['text', 'json', 'stream-json'] as const) {
    it(`-o ${format}: no trace, exit 141`, async () => {
      const ws = workspace();
      ws.settings(ONLY());
      const ep = await endpoint(reply.text(...chunks));
      const child = spawnHost(['-p', 'talk a lot', '-o', format], { ws, url: ep.url });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      let got = 0;
      // Read the first bytes, then close our end: what `head -c 5` does.
      child.stdout!.once('data', (d: Buffer) => {
        got = d.length;
        child.stdout!.destroy();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      expect(got, `${code} ${stderr}`).toBeGreaterThan(0);
      expect(stderr).not.toMatch(/EPIPE|\n\s+at |Error/);
      expect(code, stderr).toBe(141);
    });
  }
});
