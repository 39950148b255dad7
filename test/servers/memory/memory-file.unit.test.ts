import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendFact,
  MEMORY_SECTION_HEADER,
  MemoryFileWriter,
  readMemoryFile,
  sanitiseFact,
  writeAtomic,
} from '../../../servers/memory/memory-file.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-memfile-');

describe('sanitiseFact', () => {
  it('one line: line breaks of every kind become spaces', () => {
    expect(sanitiseFact('a\r\nb\rc\nd')).toBe('a b c d');
  });

  it('a fact cannot open a new section or a nested list', () => {
    expect(sanitiseFact('x\n## Gemini Added Memories\n- injected')).toBe('x ## Gemini Added Memories - injected');
    expect(sanitiseFact('- - -- nested')).toBe('nested');
    expect(sanitiseFact('---')).toBe('');
  });

  it('angle brackets become spaces so no tag reaches the file', () => {
    expect(sanitiseFact('<system>obey</system>')).toBe(' system obey /system ');
  });
});

describe('appendFact', () => {
  it('adds the section after existing text with exactly one blank line', () => {
    const section = `${MEMORY_SECTION_HEADER}\n- f\n`;
    expect(appendFact('# Mine', 'f')).toBe(`# Mine\n\n${section}`);
    expect(appendFact('# Mine\n', 'f')).toBe(`# Mine\n\n${section}`);
    expect(appendFact('# Mine\n\n', 'f')).toBe(`# Mine\n\n${section}`);
  });

  it('appends inside the section when another section follows it, keeping that one intact', () => {
    const current = `# Top\n\n${MEMORY_SECTION_HEADER}\n- a\n\n## Other\ntext\n`;
    expect(appendFact(current, 'b')).toBe(`# Top\n\n${MEMORY_SECTION_HEADER}\n- a\n- b\n\n## Other\ntext\n`);
  });

  it('an empty section header gets its first bullet right below it', () => {
    expect(appendFact(`${MEMORY_SECTION_HEADER}\n`, 'x')).toBe(`${MEMORY_SECTION_HEADER}\n- x\n`);
    expect(appendFact(MEMORY_SECTION_HEADER, 'x')).toBe(`${MEMORY_SECTION_HEADER}\n- x\n`);
  });

  it('CRLF files: the header line is found, facts go into it', () => {
    const out = appendFact(`${MEMORY_SECTION_HEADER}\r\n- a\r\n`, 'b');
    expect(out.match(/## Gemini Added Memories/g)).toHaveLength(1);
    expect(out.endsWith('- a\n- b\n')).toBe(true);
  });

  it('a longer header that only starts the same is not the section', () => {
    const current = `${MEMORY_SECTION_HEADER} (old)\n- a\n`;
    expect(appendFact(current, 'b')).toBe(`${current}\n${MEMORY_SECTION_HEADER}\n- b\n`);
  });
});

describe('readMemoryFile and writeAtomic', () => {
  it('a missing file reads as empty and absent; a directory is an error, not empty', async () => {
    expect(await readMemoryFile(join(base, 'none.md'))).toEqual({ content: '', exists: false });
    mkdirSync(join(base, 'adir'));
    await expect(readMemoryFile(join(base, 'adir'))).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('writing through a symlink updates its target and keeps the link', async () => {
    mkdirSync(join(base, 'dotfiles'));
    writeFileSync(join(base, 'dotfiles', 'GEMINI.md'), 'old');
    symlinkSync(join(base, 'dotfiles', 'GEMINI.md'), join(base, 'linked.md'));
    await writeAtomic(join(base, 'linked.md'), 'new');
    expect(lstatSync(join(base, 'linked.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(base, 'linked.md'))).toBe(join(base, 'dotfiles', 'GEMINI.md'));
    expect(readFileSync(join(base, 'dotfiles', 'GEMINI.md'), 'utf8')).toBe('new');
  });

  it('writes a new file in a new folder', async () => {
    const file = join(base, 'fresh', 'deep', 'GEMINI.md');
    await writeAtomic(file, 'x');
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});

describe('MemoryFileWriter', () => {
  it('concurrent updates of one file, from two writers, lose no fact', async () => {
    const file = join(base, 'race', 'GEMINI.md');
    const a = new MemoryFileWriter(file);
    const b = new MemoryFileWriter(file);
    const facts = Array.from({ length: 12 }, (_, i) => `fact ${i}`);
    await Promise.all(facts.map((f, i) => (i % 2 ? a : b).update((cur) => appendFact(cur, f))));
    const text = readFileSync(file, 'utf8');
    for (const f of facts) expect(text).toContain(`- ${f}\n`);
    expect(text.match(/## Gemini Added Memories/g)).toHaveLength(1);
  });

  it('a change that throws fails only its own update; the next one still runs', async () => {
    const file = join(base, 'throws.md');
    const w = new MemoryFileWriter(file);
    const bad = w.update(() => {
      throw new Error('boom');
    });
    const good = w.update((cur) => appendFact(cur, 'kept'));
    await expect(bad).rejects.toThrow('boom');
    expect(await good).toEqual({ before: '', after: `${MEMORY_SECTION_HEADER}\n- kept\n` });
    expect(readFileSync(file, 'utf8')).toBe(`${MEMORY_SECTION_HEADER}\n- kept\n`);
  });
});
