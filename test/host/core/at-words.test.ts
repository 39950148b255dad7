import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';

/** A 1×1 PNG: a real image file, so the read goes the way a screenshot's does. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

type Part = { text?: string; inlineData?: { mimeType: string; data: string } };

describe('@ in text that names no file', () => {
  const endpoint = scriptedEndpoints();

  function setup() {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('README.md', '# the readme body\n');
    return ws;
  }

  const sentParts = (ep: { requests: { body: { contents: { parts: Part[] }[] } }[] }) =>
    ep.requests[0]!.body.contents.at(-1)!.parts;

  it("`git diff | gemini-mcp -p 'review this'`: the diff is sent as is, its @@ and @names never read as files", async () => {
    const ws = setup();
    ws.file('app.ts', 'export const a = 1;\n');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: ws.cwd,
        encoding: 'utf8',
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'init');
    // The changed line names a real file: piped text is data, so README.md must not be injected.
    writeFileSync(join(ws.cwd, 'app.ts'), 'export const a = 2; // see @README.md\n');
    const diff = git('diff');
    expect(diff).toContain('@@ -1 +1 @@');
    const ep = await endpoint(reply.text('Looks fine.'));
    const r = await runHost(['-p', 'review this'], { ws, url: ep.url, stdin: diff });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Looks fine.');
    const parts = sentParts(ep);
    expect(parts).toEqual([{ text: `${diff.trimEnd()}\n\nreview this` }]);
    expect(r.stderr).not.toContain('@');
  });

  it('stdin alone (no -p) is data too: its @README.md and @@ are sent as is, nothing is read', async () => {
    const ws = setup();
    const ep = await endpoint(reply.text('Read.'));
    const piped = 'explain @README.md\n@@ -1 +1 @@\n';
    const r = await runHost([], { ws, url: ep.url, stdin: piped });
    expect(r.code, r.stderr).toBe(0);
    expect(sentParts(ep)).toEqual([{ text: piped.trimEnd() }]);
    expect(r.stderr).not.toContain('@');
  });

  it.each([
    ['upgrade @types/node', '@types/node'],
    ['what does @Override do', '@Override'],
    ['ping @alice', '@alice'],
  ])('-p %j is sent as typed, with a warning naming the word', async (prompt, word) => {
    const ws = setup();
    const ep = await endpoint(reply.text('Done.'));
    const r = await runHost(['-p', prompt], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Done.');
    expect(sentParts(ep)).toEqual([{ text: prompt }]);
    expect(r.stderr).toContain(`Sent as text, not a file in the workspace: ${word}`);
  });

  it('@README.md still injects the file; \\@README.md is a literal @ and reads nothing', async () => {
    const ws = setup();
    const ep = await endpoint(reply.text('One.'), reply.text('Two.'));
    const read = await runHost(['-p', 'summarise @README.md, ping @alice'], { ws, url: ep.url });
    expect(read.code, read.stderr).toBe(0);
    const parts = sentParts(ep);
    expect(parts[0]!.text).toBe('summarise @README.md, ping @alice');
    expect(parts[1]!.text).toContain('the readme body');

    const literal = await runHost(['-p', 'rename \\@README.md'], { ws, url: ep.url });
    expect(literal.code, literal.stderr).toBe(0);
    expect(ep.requests[1]!.body.contents.at(-1)!.parts).toEqual([{ text: 'rename \\@README.md' }]);
  });
});

describe('@image and @pdf reach the model as inline data', () => {
  const endpoint = scriptedEndpoints();

  it('-p "describe @shot.png and @spec.pdf": the bytes go as inlineData with their MIME types', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const png = join(ws.cwd, 'shot.png');
    writeFileSync(png, PNG_1X1);
    writeFileSync(join(ws.cwd, 'spec.pdf'), PDF);
    const ep = await endpoint(reply.text('A single pixel.'));
    const r = await runHost(['-p', 'describe @shot.png and @spec.pdf'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('A single pixel.');
    const parts: Part[] = ep.requests[0]!.body.contents.at(-1)!.parts;
    expect(parts[0]!.text).toBe('describe @shot.png and @spec.pdf');
    const inline = parts.filter((p) => p.inlineData).map((p) => p.inlineData);
    expect(inline).toEqual([
      { mimeType: 'image/png', data: readFileSync(png).toString('base64') },
      { mimeType: 'application/pdf', data: PDF.toString('base64') },
    ]);

    // The recorded session keeps the bytes: a resumed run sends the image again as history.
    const ep2 = await endpoint(reply.text('Still one pixel.'));
    const again = await runHost(['--resume', 'latest', '-p', 'and now?'], { ws, url: ep2.url });
    expect(again.code, again.stderr).toBe(0);
    const history: { parts: Part[] }[] = ep2.requests[0]!.body.contents;
    expect(history[0]!.parts.filter((p) => p.inlineData)).toHaveLength(2);
    expect(history.at(-1)!.parts).toEqual([{ text: 'and now?' }]);
  });
});
