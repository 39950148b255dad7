import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../host/atomic-file.js';
import { tempDir } from '../helpers/tmp.js';

const root = tempDir('gmc-atomic-');
const modeOf = (f: string) => statSync(f).mode & 0o777;
let n = 0;
const fresh = () => {
  const dir = join(root, String(n++));
  mkdirSync(dir);
  return dir;
};
const savedUmask = process.umask();
afterEach(() => process.umask(savedUmask));

describe('writeFileAtomic', () => {
  it('creates the file and its folders, private by default, and leaves no temp file', () => {
    const dir = fresh();
    const file = join(dir, 'a/b/settings.json');
    writeFileAtomic(file, '{"x":1}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"x":1}\n');
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(join(dir, 'a/b'))).toEqual(['settings.json']);
  });

  it("keeps the replaced file's mode, even under a umask that would narrow it", () => {
    const file = join(fresh(), 'settings.json');
    writeFileSync(file, 'old');
    chmodSync(file, 0o644);
    process.umask(0o077);
    writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(modeOf(file)).toBe(0o644);
  });

  it("never takes the mode of a planted link's target, and replaces the link without writing through it", () => {
    const dir = fresh();
    const target = join(dir, 'victim.txt');
    writeFileSync(target, 'victim');
    chmodSync(target, 0o666);
    const file = join(dir, 'export.json');
    symlinkSync(target, file);
    writeFileAtomic(file, 'secret conversation');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(modeOf(file)).toBe(0o600);
    expect(readFileSync(target, 'utf8')).toBe('victim');
  });

  it('sets an explicit mode whatever the old file had (secrets), and the folder mode it creates', () => {
    const dir = fresh();
    const file = join(dir, 'tokens/mcp-oauth-tokens.json');
    mkdirSync(join(dir, 'tokens'));
    writeFileSync(file, '{}');
    chmodSync(file, 0o666);
    writeFileAtomic(file, '{"t":1}', { mode: 0o600 });
    expect(modeOf(file)).toBe(0o600);
    const nested = join(dir, 'cache/listings/x.json');
    process.umask(0o022);
    writeFileAtomic(nested, '1', { mode: 0o600, dirMode: 0o700 });
    expect(modeOf(join(dir, 'cache/listings'))).toBe(0o700);
  });

  it('a failed write throws, keeps the old content and removes its temp file', () => {
    const dir = fresh();
    const target = join(dir, 'is-a-folder');
    mkdirSync(join(target, 'child'), { recursive: true });
    expect(() => writeFileAtomic(target, 'text')).toThrow();
    expect(readdirSync(dir)).toEqual(['is-a-folder']);
    expect(readdirSync(target)).toEqual(['child']);
  });

  it('many writers in turn leave one whole file and no temp files', () => {
    const dir = fresh();
    const file = join(dir, 'history.json');
    for (let i = 0; i < 50; i++) writeFileAtomic(file, JSON.stringify({ i, pad: 'x'.repeat(1000 * i) }));
    expect(JSON.parse(readFileSync(file, 'utf8')).i).toBe(49);
    expect(readdirSync(dir)).toEqual(['history.json']);
  });
});
