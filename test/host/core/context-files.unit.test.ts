import { describe, expect, it } from 'vitest';
import { contextFileNames, contextFilesInUse } from '../../../host/core/context-files.js';
import type { LoadedExtension } from '../../../host/extensions/loader.js';

/** A reader of the manager's own interface: the memory server's status and its files resource. */
const reader = (status: string, resource: string | Error) => ({
  states: () => [
    { alias: 'filesystem', status: 'connected' },
    { alias: 'memory', status },
  ],
  readResource: async (alias: string, uri: string) => {
    expect([alias, uri]).toEqual(['memory', 'gemini-memory://files']);
    if (resource instanceof Error) throw resource;
    return { contents: [{ text: resource }] };
  },
});
const ext = (name: string, enabled: boolean, contextFiles: string[]) =>
  ({ name, enabled, contextFiles }) as LoadedExtension;

describe('contextFilesInUse', () => {
  it("the memory server's files, then enabled extensions' files with their scope", async () => {
    const files = await contextFilesInUse(
      reader('connected', JSON.stringify({ files: [{ path: '/h/.gemini/GEMINI.md', scope: 'global' }] })),
      [ext('tools', true, ['/e/tools/GEMINI.md']), ext('off', false, ['/e/off/GEMINI.md'])],
    );
    expect(files).toEqual([
      { path: '/h/.gemini/GEMINI.md', scope: 'global' },
      { path: '/e/tools/GEMINI.md', scope: 'extension tools' },
    ]);
  });

  it('a memory server that is not connected or cannot say, and no extension files: unknown', async () => {
    expect(await contextFilesInUse(reader('failed', '{}'), [])).toBeUndefined();
    expect(await contextFilesInUse(reader('connected', new Error('gone')), [])).toBeUndefined();
    expect(await contextFilesInUse(reader('connected', 'not json'), [])).toBeUndefined();
  });

  it('a connected memory server with no files says none; extensions still count when it cannot say', async () => {
    expect(await contextFilesInUse(reader('connected', ''), [])).toEqual([]);
    expect(await contextFilesInUse(reader('failed', ''), [ext('a', true, ['/e/a/AGENTS.md'])])).toEqual([
      { path: '/e/a/AGENTS.md', scope: 'extension a' },
    ]);
  });
});

describe('contextFileNames', () => {
  it('distinct base names in order', () => {
    expect(contextFileNames([{ path: '/a/GEMINI.md' }, { path: '/b/AGENTS.md' }, { path: '/c/GEMINI.md' }])).toBe(
      'GEMINI.md, AGENTS.md',
    );
    expect(contextFileNames([])).toBe('');
  });
});
