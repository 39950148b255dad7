import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveMemoryPaths, tildify } from '../../../servers/memory/paths.js';

describe('resolveMemoryPaths', () => {
  it('GEMINI_CLI_HOME replaces the home folder, resolved to an absolute path', () => {
    expect(resolveMemoryPaths({ fileNames: ['GEMINI.md'], env: { GEMINI_CLI_HOME: 'rel/home' } })).toEqual({
      home: resolve('rel/home'),
      globalDir: join(resolve('rel/home'), '.gemini'),
      memoryFile: join(resolve('rel/home'), '.gemini', 'GEMINI.md'),
    });
  });

  it('without GEMINI_CLI_HOME (or with it empty) the OS home folder is used', () => {
    for (const env of [{}, { GEMINI_CLI_HOME: '' }])
      expect(resolveMemoryPaths({ fileNames: [], env }).home).toBe(resolve(homedir()));
  });

  it('the memory file is the first context file name, GEMINI.md without one', () => {
    const env = { GEMINI_CLI_HOME: '/h' };
    expect(resolveMemoryPaths({ fileNames: ['AGENTS.md', 'GEMINI.md'], env }).memoryFile).toBe('/h/.gemini/AGENTS.md');
    expect(resolveMemoryPaths({ fileNames: [], env }).memoryFile).toBe('/h/.gemini/GEMINI.md');
  });

  it('an explicit memory file wins and is made absolute', () => {
    const paths = resolveMemoryPaths({
      memoryFile: 'notes/MEM.md',
      fileNames: ['X.md'],
      env: { GEMINI_CLI_HOME: '/h' },
    });
    expect(paths.memoryFile).toBe(resolve('notes/MEM.md'));
    expect(paths.globalDir).toBe('/h/.gemini');
  });
});

describe('tildify', () => {
  it('the home folder itself is ~, paths below it start with ~/', () => {
    expect(tildify('/h/u', '/h/u')).toBe('~');
    expect(tildify('/h/u/', '/h/u')).toBe('~');
    expect(tildify('/h/u/a/b.md', '/h/u')).toBe('~/a/b.md');
  });

  it('siblings sharing a prefix, and .. escapes, stay as written', () => {
    expect(tildify('/h/user2/x.md', '/h/u')).toBe('/h/user2/x.md');
    expect(tildify('/h/u-evil/x.md', '/h/u')).toBe('/h/u-evil/x.md');
    expect(tildify('/h/u/../v/x.md', '/h/u')).toBe('/h/u/../v/x.md');
  });

  it('a file whose name starts with two dots is still below home', () => {
    expect(tildify('/h/u/..notes.md', '/h/u')).toBe('~/..notes.md');
  });
});
