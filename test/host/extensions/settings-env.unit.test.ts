import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEnvFile } from '../../../host/config/env-file.js';
import { formatEnv } from '../../../host/extensions/settings-env.js';
import { tempDir } from '../../helpers/tmp.js';

const dir = tempDir('gmc-settingsenv-');
let n = 0;
/** Writes `values` as formatEnv does and reads them back as the host reads an extension's `.env`. */
function roundTrip(values: Record<string, string>): Record<string, string> {
  const file = join(dir, `env${++n}`);
  writeFileSync(file, formatEnv(values));
  return readEnvFile(file);
}

describe('formatEnv', () => {
  it('KEY=value lines; a value with spaces double-quoted, as Gemini CLI writes it', () => {
    expect(formatEnv({ A: 'plain', B: 'two words', F: '' })).toBe('A=plain\nB="two words"\nF=\n');
  });

  it('refuses names that are not environment variable names', () => {
    for (const key of ['1A', 'A-B', 'A B', '', 'A=B'])
      expect(() => formatEnv({ [key]: 'v' }), key).toThrow(`Invalid environment variable name: "${key}".`);
  });

  it('refuses a value with a line break (it could add a variable of its own)', () => {
    expect(() => formatEnv({ A: 'x\nEVIL=1' })).toThrow('Invalid value for "A": values cannot contain newlines.');
    expect(() => formatEnv({ A: 'x\rEVIL=1' })).toThrow('Invalid value for "A": values cannot contain newlines.');
  });

  it('what it writes reads back as the same values', () => {
    const values = {
      PLAIN: 'abc123',
      SPACES: 'two words here',
      TOKEN: 'sk-AbC_123.xyz',
      HASH: 'before#after',
      TABS: 'a\tb',
      EMPTY: '',
      URL: 'https://example.com/path?q=1&r=2',
    };
    expect(roundTrip(values)).toEqual(values);
  });

  it('quotes and backslashes read back unchanged too (a Windows path, a password)', () => {
    const values = {
      WINPATH: 'C:\\Users\\me\\My Files',
      QUOTED: 'say "hi"',
      APOSTROPHE: "it's mine",
      BOTH: `it's "quoted"`,
      BACKSLASH_N: 'a\\nb \\r c',
      TRAILING: 'ends with \\',
      LEADING: '  padded  ',
    };
    expect(roundTrip(values)).toEqual(values);
  });

  it('a value holding every kind of quote cannot be kept in a .env file: a clear error, nothing written', () => {
    expect(() => formatEnv({ A: `' " \`` })).toThrow(/^Invalid value for "A": /);
  });
});
