import { atomicWrite } from '../common/atomic-write.js';
import { readFile, realpath } from 'node:fs/promises';
import { withFileLock } from './file-lock.js';

export const MEMORY_SECTION_HEADER = '## Gemini Added Memories';

/**
 * A fact as save_memory stores it, one bullet line: line breaks to spaces, trim, strip leading `-`
 * bullets (repeatedly, so a fact cannot start a nested list), trim again, then `<`/`>` to spaces without a
 * final trim (so tags cannot be smuggled into the file).
 */
export function sanitiseFact(fact: string): string {
  let s = fact.replace(/\r\n|\r|\n/g, ' ').trim();
  while (s.startsWith('-')) s = s.replace(/^-+\s*/, '');
  return s.trim().replace(/[<>]/g, ' ');
}

/** The memory file after appending `- <fact>` (the fact is already sanitised). */
export function appendFact(current: string, fact: string): string {
  const bullet = `- ${fact}`;
  const headerAt = findHeaderLine(current);
  if (headerAt < 0) {
    const separator = current.length === 0 || current.endsWith('\n\n') ? '' : current.endsWith('\n') ? '\n' : '\n\n';
    return `${current}${separator}${MEMORY_SECTION_HEADER}\n${bullet}\n`;
  }
  const bodyStart = headerAt + MEMORY_SECTION_HEADER.length;
  const nextSection = current.indexOf('\n## ', bodyStart);
  const bodyEnd = nextSection < 0 ? current.length : nextSection;
  const head = current.slice(0, bodyStart).trimEnd();
  const body = `${current.slice(bodyStart, bodyEnd).trimEnd()}\n${bullet}`.trimStart();
  const rest = nextSection < 0 ? '' : current.slice(nextSection);
  return `${`${head}\n${body}\n${rest}`.trimEnd()}\n`;
}

/** Index of a line that is exactly the section header, or -1 (a mention inside a bullet does not count). */
function findHeaderLine(text: string): number {
  let from = 0;
  for (;;) {
    const at = text.indexOf(MEMORY_SECTION_HEADER, from);
    if (at < 0) return -1;
    const lineStart = at === 0 || text[at - 1] === '\n';
    const after = text[at + MEMORY_SECTION_HEADER.length];
    if (lineStart && (after === undefined || after === '\n' || after === '\r')) return at;
    from = at + 1;
  }
}

export async function readMemoryFile(file: string): Promise<{ content: string; exists: boolean }> {
  try {
    return { content: await readFile(file, 'utf8'), exists: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { content: '', exists: false };
    throw err;
  }
}

/** Atomic (temp file, fsync, rename) write of the memory file. */
export async function writeAtomic(path: string, content: string): Promise<void> {
  // A memory file kept elsewhere through a symlink (a dotfiles repository) stays linked: the rename
  // replaces the link's target, not the link.
  await atomicWrite(await realpath(path).catch(() => path), content);
}

/**
 * Serialises every change of one memory file: a promise chain orders the writes of this server
 * instance, and a lock file next to the memory file orders them against other processes (a second
 * server, another session over HTTP). Each change re-reads the file inside the lock, so no fact is lost.
 */
export class MemoryFileWriter {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  update(change: (current: string) => string): Promise<{ before: string; after: string }> {
    const run = () =>
      withFileLock(this.file, async () => {
        const { content } = await readMemoryFile(this.file);
        const after = change(content);
        await writeAtomic(this.file, after);
        return { before: content, after };
      });
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
