import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths.js';

// Every configuration file the host reads (settings, hooks, policies, extensions and their enablement,
// commands, skills, context files, files named by flags) goes through one reader,
// host/config/config-file.ts: regular files only, opened without blocking, size-capped. A loader that
// calls fs itself brings the FIFO hang back, so any module outside that reader that opens or reads a
// file must be listed here with the reason it is not reading configuration.

const READER = 'host/config/config-file.ts';

const NOT_CONFIGURATION: Record<string, string> = {
  'host/atomic-file.ts': 'opens only to write: its own fresh temp file, and the folder to fsync it',
  'host/sessions/recorder.ts': 'opens only to append to the session record it created',
  'host/sessions/gemini-cli-mirror.ts':
    "opens only to append to Gemini CLI's copy of a session of ours (no link, no FIFO)",
  'host/ui/input/editor.ts': 'reads back the temp file it created in its own fresh mkdtemp folder',
  'host/config/builtin-servers.ts': "reads the package.json of this program's own install to find it",
  'host/ui/input/history-store.ts': 'our own input history under ~/.gemini, written only by us',
  'host/mcp/oauth/token-store.ts': 'our own OAuth token store, written only by us',
  'host/mcp/listing-cache.ts': 'our own server listing cache, written only by us',
  'host/checkpoints/checkpointer.ts': 'our own checkpoint records, written only by us',
  'host/sessions/store.ts': 'our own session records, written only by us',
  'host/sessions/tags.ts': 'our own /chat save tags, written only by us',
};

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(REPO, dir))) {
    const rel = join(dir, name);
    if (statSync(join(REPO, rel)).isDirectory()) walk(rel, out);
    else if (/\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Whether the code (comment lines left out) opens or reads a file by itself. */
function readsFiles(text: string): boolean {
  const code = text
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l))
    .join('\n');
  return (
    /\b(?:readFileSync|readFile|createReadStream|openSync|readSync|openAsBlob)\s*\(/.test(code) ||
    /\b(?:open|readFile)\b[^;]*from\s*['"](?:node:)?fs\/promises['"]/.test(code) ||
    /\b(?:promises|fsp)\.(?:open|readFile)\s*\(/.test(code)
  );
}

describe('configuration is read only through the one safe reader', () => {
  it('sees every way of reading a file, and not prose about it', () => {
    expect(readsFiles("const t = readFileSync(file, 'utf8');")).toBe(true);
    expect(readsFiles('const t = await fs.readFile(file);')).toBe(true);
    expect(readsFiles("import { readFile } from 'node:fs/promises';")).toBe(true);
    expect(readsFiles("import { open } from 'fs/promises';")).toBe(true);
    expect(readsFiles('await fsp.open(file)')).toBe(true);
    expect(readsFiles('const fd = openSync(file, "r");')).toBe(true);
    expect(readsFiles('createReadStream(p).pipe(out)')).toBe(true);
    expect(readsFiles('// we never readFileSync( here\nconst x = 1;')).toBe(false);
    expect(readsFiles('const text = readConfigFile(file);')).toBe(false);
  });

  it('no module of host/ but the reader opens or reads a file, except those listed with their reason', () => {
    const readers = walk('host').filter((f) => f !== READER && readsFiles(readFileSync(join(REPO, f), 'utf8')));
    const unlisted = readers.filter((f) => !Object.hasOwn(NOT_CONFIGURATION, f));
    expect(unlisted, `read configuration through ${READER} (readConfigFile)`).toEqual([]);
    // A listed module that no longer reads anything is dropped from the list, so the list stays the truth.
    expect(Object.keys(NOT_CONFIGURATION).filter((f) => !readers.includes(f))).toEqual([]);
  });
});
