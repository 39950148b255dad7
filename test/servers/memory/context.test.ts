import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { StdioServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { startMemory as start } from './harness.js';

function write(file: string, text: string) {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
}

/** A fake home with a global file, a git repo with a root two levels down, imports of every kind. */
function fixture() {
  const home = tempDir('ctx-home-');
  const repo = tempDir('ctx-repo-');
  const outside = tempDir('ctx-out-');
  const root = join(repo, 'pkg', 'app');
  mkdirSync(join(repo, '.git'), { recursive: true });
  write(join(home, '.gemini', 'GEMINI.md'), 'global fact\n');
  write(join(repo, 'GEMINI.md'), 'repo level\n@./docs/a.md\n');
  write(join(repo, 'pkg', 'GEMINI.md'), '   \n'); // empty after trimming: dropped
  write(join(repo, 'docs', 'a.md'), 'A content\n@./b.md');
  write(join(repo, 'docs', 'b.md'), 'B content @./a.md');
  write(join(outside, 'secret.md'), 'SECRET');
  const escapePath = relative(root, join(outside, 'secret.md'));
  write(
    join(root, 'GEMINI.md'),
    [
      'app level',
      `escape: @${escapePath}`,
      'url: @https://example.com/x.md',
      'missing: @./missing.md',
      'span: `@./d1.md` mail: me@./d1.md',
      '```',
      '@./d1.md',
      '```',
      'chain: @./d1.md',
    ].join('\n'),
  );
  for (let i = 1; i <= 6; i++) write(join(root, `d${i}.md`), `depth ${i} @./d${i + 1}.md`);
  return { home, repo, root, escapePath };
}

async function readText(s: StdioServer, uri: string): Promise<string> {
  const r = await s.client.readResource({ uri });
  return (r.contents[0] as { text: string }).text;
}

describe('memory context resources', () => {
  it('renders global then project files outermost first, with imports processed', async () => {
    const { home, repo, root, escapePath } = fixture();
    const s = await start(home, root);
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['gemini-memory://context', 'gemini-memory://files']);
    expect(s.client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true, listChanged: true });

    const text = await readText(s, 'gemini-memory://context');
    const g = join(home, '.gemini', 'GEMINI.md');
    const r = join(repo, 'GEMINI.md');
    const a = join(root, 'GEMINI.md');
    expect(
      text.startsWith(
        `--- Context from: ${g} ---\nglobal fact\n--- End of Context from: ${g} ---\n\n--- Context from: ${r} ---\n`,
      ),
    ).toBe(true);
    expect(text.indexOf(r)).toBeLessThan(text.indexOf(a));
    expect(text).not.toContain(join(repo, 'pkg', 'GEMINI.md'));
    // nested import and a cycle back to a.md
    expect(text).toContain(
      'repo level\n<!-- Imported from: ./docs/a.md -->\nA content\n<!-- Imported from: ./b.md -->\nB content <!-- File already processed: ./a.md -->\n<!-- End of import from: ./b.md -->\n<!-- End of import from: ./docs/a.md -->',
    );
    expect(text).toContain(`escape: <!-- Import failed: ${escapePath} - Path traversal attempt -->`);
    expect(text).not.toContain('SECRET');
    expect(text).toContain('url: <!-- Import failed: https://example.com/x.md - Path traversal attempt -->');
    expect(text).toMatch(/missing: <!-- Import failed: \.\/missing\.md - ENOENT[^>]*-->/);
    // code spans, fences and mid-word @ stay literal
    expect(text).toContain(
      'span: `@./d1.md` mail: me@./d1.md\n```\n@./d1.md\n```\nchain: <!-- Imported from: ./d1.md -->',
    );
    // depth 5: d5 is inlined, its own import is left as text
    expect(text).toContain('depth 5 @./d6.md');
    expect(text).not.toContain('depth 6');
    expect(text.endsWith(`--- End of Context from: ${a} ---`)).toBe(true);

    const files = JSON.parse(await readText(s, 'gemini-memory://files'));
    expect(files).toEqual({
      files: [
        { path: g, scope: 'global' },
        { path: r, scope: 'project' },
        { path: a, scope: 'project' },
      ],
    });
  });

  it('loads the root alone outside git and honours --context-file-name', async () => {
    const home = tempDir('ctx-home-');
    const parent = tempDir('ctx-nogit-');
    const root = join(parent, 'inner');
    write(join(parent, 'AGENTS.md'), 'parent');
    write(join(root, 'AGENTS.md'), 'inner agents');
    write(join(root, 'GEMINI.md'), 'inner gemini');
    const s = await start(home, root, { args: ['--context-file-name', 'AGENTS.md'] });
    const text = await readText(s, 'gemini-memory://context');
    expect(text).toBe(
      `--- Context from: ${join(root, 'AGENTS.md')} ---\ninner agents\n--- End of Context from: ${join(root, 'AGENTS.md')} ---`,
    );
    // save_memory writes to the first configured name
    await s.call('save_memory', { fact: 'likes agents' });
    expect(await readText(s, 'gemini-memory://context')).toContain(
      `--- Context from: ${join(home, '.gemini', 'AGENTS.md')} ---\n## Gemini Added Memories\n- likes agents\n`,
    );
  });

  it("uses the client's MCP roots, which may narrow --root (never widen it)", async () => {
    const home = tempDir('ctx-home-');
    const argRoot = tempDir('ctx-arg-');
    const clientRoot = join(argRoot, 'client');
    mkdirSync(clientRoot);
    write(join(argRoot, 'GEMINI.md'), 'from the argument root');
    write(join(clientRoot, 'GEMINI.md'), 'from the client root');
    const clientRoots = [clientRoot];
    const s = await start(home, argRoot, { roots: clientRoots });
    const text = await readText(s, 'gemini-memory://context');
    expect(text).toContain('from the client root');
    expect(text).not.toContain('from the argument root');

    // A roots change is announced to subscribers, since other roots mean other context files.
    await s.client.subscribeResource({ uri: 'gemini-memory://context' });
    const updated = new Promise<string>((resolve) =>
      s.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    clientRoots.push(argRoot);
    await s.client.sendRootsListChanged();
    expect(await updated).toBe('gemini-memory://context');
    expect(await readText(s, 'gemini-memory://context')).toContain('from the argument root');
  });

  it('sends resources/updated after save_memory', async () => {
    const { home, root } = fixture();
    const s = await start(home, root);
    const updated = new Promise<string>((resolve) =>
      s.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await s.call('save_memory', { fact: 'likes sushi' });
    expect(await updated).toBe('gemini-memory://context');
    expect(await readText(s, 'gemini-memory://context')).toContain('## Gemini Added Memories\n- likes sushi');
  });

  it('sends resources/updated to a subscriber when a loaded or imported file changes', async () => {
    const { home, repo, root } = fixture();
    const s = await start(home, root);
    const waiters: Array<(uri: string) => void> = [];
    s.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      for (const w of waiters.splice(0)) w(n.params.uri);
    });
    const nextUpdate = () => new Promise<string>((resolve) => waiters.push(resolve));
    await s.client.subscribeResource({ uri: 'gemini-memory://context' });

    let got = nextUpdate();
    writeFileSync(join(repo, 'GEMINI.md'), 'repo level changed\n');
    expect(await got).toBe('gemini-memory://context');
    expect(await readText(s, 'gemini-memory://context')).toContain('repo level changed');

    got = nextUpdate();
    writeFileSync(join(root, 'd1.md'), 'depth one edited');
    await got;
    expect(await readText(s, 'gemini-memory://context')).toContain('depth one edited');

    // a context file appearing in a watched directory counts too
    got = nextUpdate();
    writeFileSync(join(repo, 'pkg', 'GEMINI.md'), 'pkg level now');
    await got;
    expect(await readText(s, 'gemini-memory://context')).toContain('pkg level now');
  });
});
