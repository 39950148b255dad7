import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A real temp directory (realpath'd, so roots compare equal), removed after the file's tests. */
export function tempDir(prefix = 'gmc-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
