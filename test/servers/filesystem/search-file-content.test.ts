import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onPath } from '../../../servers/filesystem/lib/grep-engines.js';
import { tempDir } from '../../helpers/tmp.js';
import { connectFs, errorTypeOf, firstText } from './connect.js';

const ENGINES = ['js', 'grep', 'git', 'rg'].filter((e) => e === 'js' || onPath(e === 'git' ? 'git' : e));

function makeTree(): string {
  const root = tempDir('gmc-grep-');
  execFileSync('git', ['init', '-q'], { cwd: root });
  mkdirSync(join(root, 'sub'));
  mkdirSync(join(root, 'node_modules', 'm'), { recursive: true });
  mkdirSync(join(root, 'build'));
  writeFileSync(join(root, 'fileA.txt'), 'hello world\nsecond world\nthird WORLD');
  writeFileSync(join(root, 'sub', 'b.txt'), 'nothing\n');
  writeFileSync(join(root, 'node_modules', 'm', 'index.js'), 'world\n');
  writeFileSync(join(root, 'build', 'out.txt'), 'world\n');
  writeFileSync(join(root, '.gitignore'), 'build/\n');
  writeFileSync(join(root, '.env'), 'WORLD=1\n');
  writeFileSync(join(root, 'bin.dat'), Buffer.from('world\0world'));
  return root;
}

describe.each(ENGINES)('search_file_content (%s engine)', (engine) => {
  // The server reads the variable per call, so each block forces its engine.
  beforeEach(() => void (process.env.GEMINI_MCP_GREP_ENGINE = engine));
  afterEach(() => void delete process.env.GEMINI_MCP_GREP_ENGINE);

  it('finds three matches in one file, case-insensitively, skipping excluded files', async () => {
    const root = makeTree();
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('search_file_content', { pattern: 'world' });
    expect(text).toBe(
      'Found 3 matches for pattern "world" in the workspace directory:\n---\nFile: fileA.txt\nL1: hello world\nL2: second world\nL3: third WORLD\n---',
    );
  });

  it('adds ±50 lines of context to a single match', async () => {
    const root = tempDir();
    const lines = Array.from({ length: 120 }, (_, i) =>
      i === 50 ? 'the needle line   ' : i === 10 ? '' : `l${i + 1}`,
    );
    writeFileSync(join(root, 'long.txt'), lines.join('\n'));
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('search_file_content', { pattern: 'needle' });
    const body = text.split('\n');
    expect(body[0]).toBe('Found 1 match for pattern "needle" in the workspace directory:');
    expect(body[2]).toBe('File: long.txt');
    expect(body[3]).toBe('L1- l1');
    expect(body).toContain('L11- ');
    expect(body).toContain('L51: the needle line');
    expect(body[body.length - 2]).toBe('L101- l101');
    expect(text.endsWith('\n---')).toBe(true);
  });

  it('reports no match, include filters, path scopes, multiple roots', async () => {
    const root = makeTree();
    const other = tempDir('gmc-other-');
    writeFileSync(join(other, 'o.txt'), 'world again\n');
    const fs = await connectFs({ roots: [root, other] });
    expect(await fs.text('search_file_content', { pattern: 'zebra', include: '*.md' })).toBe(
      'No matches found for pattern "zebra" across 2 workspace directories (filter: "*.md").',
    );
    const scoped = await fs.text('search_file_content', { pattern: 'nothing', path: 'sub' });
    expect(scoped).toBe('Found 1 match for pattern "nothing" in path "sub":\n---\nFile: b.txt\nL1: nothing\nL2- \n---');
    const multi = await fs.text('search_file_content', { pattern: 'world', include: '*.txt' });
    expect(multi.split('\n')[0]).toBe(
      'Found 4 matches for pattern "world" across 2 workspace directories (filter: "*.txt"):',
    );
    expect(multi).toContain(`File: ${basename(root)}/fileA.txt`);
    expect(multi).toContain(`File: ${basename(other)}/o.txt`);
  });

  it('adds ±15 lines around each of two matches, with the empty last line of a trailing newline', async () => {
    const root = tempDir();
    const lines = Array.from({ length: 100 }, (_, i) => (i === 19 ? 'needle a' : i === 94 ? 'needle b' : `l${i + 1}`));
    writeFileSync(join(root, 'two.txt'), `${lines.join('\n')}\n`);
    const fs = await connectFs({ roots: [root] });
    const body = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, k) => from + k).map((n) =>
        n === 20 || n === 95 ? `L${n}: ${lines[n - 1]}` : `L${n}- ${lines[n - 1] ?? ''}`,
      );
    expect(await fs.text('search_file_content', { pattern: 'needle' })).toBe(
      [
        'Found 2 matches for pattern "needle" in the workspace directory:',
        '---',
        'File: two.txt',
        ...body(5, 35),
        ...body(80, 101),
        '---',
      ].join('\n'),
    );
  });

  it('splits lines on \\r?\\n so `$` matches CRLF lines, and expands braces in include', async () => {
    const root = makeTree();
    writeFileSync(join(root, 'sub', 'w.tsx'), 'say world\r\nmore\r\n');
    writeFileSync(join(root, 'sub', 'w.ts'), 'world\n');
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('search_file_content', { pattern: 'world$', path: 'sub' })).toBe(
      'Found 2 matches for pattern "world$" in path "sub":\n---\nFile: w.ts\nL1: world\nL2- \n---\nFile: w.tsx\nL1: say world\nL2- more\nL3- \n---',
    );
    const braces = await fs.text('search_file_content', { pattern: 'world', include: '*.{ts,tsx}' });
    expect(braces.split('\n')[0]).toBe(
      'Found 2 matches for pattern "world" in the workspace directory (filter: "*.{ts,tsx}"):',
    );
    expect(braces).toContain('File: sub/w.ts\n');
    expect(braces).toContain('File: sub/w.tsx\n');
    expect(await fs.text('search_file_content', { pattern: 'zebra', include: '*.md' })).toBe(
      'No matches found for pattern "zebra" in the workspace directory (filter: "*.md").',
    );
  });

  it('caps at 100 matches in path order and cuts long lines', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'b.txt'), Array.from({ length: 150 }, (_, i) => `match ${i}`).join('\n'));
    writeFileSync(join(root, 'a.txt'), `match ${'é'.repeat(3000)}\n`);
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('search_file_content', { pattern: 'match' });
    expect(text.split('\n')[0]).toBe(
      'Found 100 matches for pattern "match" in the workspace directory (results limited to 100 matches for performance):',
    );
    expect(text.match(/^L\d+: /gm)).toHaveLength(100);
    expect(text).toContain(`L1: match ${'é'.repeat(1994)}... [truncated]`);
    expect(text.indexOf('File: a.txt')).toBeLessThan(text.indexOf('File: b.txt'));
  });
});

describe('search_file_content validation', () => {
  it('rejects bad regexes and bad paths', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'f.txt'), 'x');
    const fs = await connectFs({ roots: [root] });
    const bad = await fs.call('search_file_content', { pattern: '([' });
    expect(firstText(bad)).toMatch(/^Invalid regular expression pattern provided: \(\[\. Error: .+/);
    expect(errorTypeOf(bad)).toBe('invalid_tool_params');
    expect(firstText(await fs.call('search_file_content', { pattern: 'x', path: join(root, 'nope') }))).toBe(
      `Path does not exist: ${join(root, 'nope')}`,
    );
    expect(firstText(await fs.call('search_file_content', { pattern: 'x', path: join(root, 'f.txt') }))).toBe(
      `Path is not a directory: ${join(root, 'f.txt')}`,
    );
    const outside = await fs.call('search_file_content', { pattern: 'x', path: '/etc' });
    expect(errorTypeOf(outside)).toBe('path_not_in_workspace');
  });

  it('gives the same output whichever engine ran', async () => {
    const root = makeTree();
    writeFileSync(join(root, 'sub', 'c.ts'), 'const world = 1;\r\nworld();\n');
    const outputs = new Set<string>();
    for (const engine of ENGINES) {
      process.env.GEMINI_MCP_GREP_ENGINE = engine;
      const fs = await connectFs({ roots: [root] });
      outputs.add(await fs.text('search_file_content', { pattern: 'w.rld' }));
    }
    delete process.env.GEMINI_MCP_GREP_ENGINE;
    expect(outputs.size).toBe(1);
  });
});
