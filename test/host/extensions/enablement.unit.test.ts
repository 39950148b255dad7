import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../../host/config/config-file.js';
import { Enablement } from '../../../host/extensions/enablement.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-enablement-');
let n = 0;
/** A fresh extensions folder, with `extension-enablement.json` holding `content` when given. */
function dir(content?: unknown): string {
  const d = join(base, `ext${++n}`);
  mkdirSync(d, { recursive: true });
  if (content !== undefined)
    writeFileSync(
      join(d, 'extension-enablement.json'),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  return d;
}
const fileOf = (d: string) => JSON.parse(readFileSync(join(d, 'extension-enablement.json'), 'utf8'));

describe('Enablement.isEnabled: the last matching rule wins', () => {
  it('no file, or no rule for the extension: enabled', () => {
    expect(new Enablement(dir()).isEnabled('x', '/work')).toBe(true);
    expect(new Enablement(dir({ other: { overrides: ['!/work/*'] } })).isEnabled('x', '/work')).toBe(true);
  });

  it('a rule with * covers the folder and every folder below it, and nothing beside it', () => {
    const e = new Enablement(dir({ x: { overrides: ['!/work/*'] } }));
    expect(e.isEnabled('x', '/work')).toBe(false);
    expect(e.isEnabled('x', '/work/a/b')).toBe(false);
    expect(e.isEnabled('x', '/work-evil')).toBe(true);
    expect(e.isEnabled('x', '/workspace/a')).toBe(true);
    expect(e.isEnabled('x', '/')).toBe(true);
  });

  it('a rule without * covers that folder only', () => {
    const e = new Enablement(dir({ x: { overrides: ['!/work/'] } }));
    expect(e.isEnabled('x', '/work')).toBe(false);
    expect(e.isEnabled('x', '/work/')).toBe(false);
    expect(e.isEnabled('x', '/work/sub')).toBe(true);
  });

  it('a later rule overrides an earlier one where both match', () => {
    const e = new Enablement(dir({ x: { overrides: ['!/*', '/home/u/proj/*', '!/home/u/proj/vendor/'] } }));
    expect(e.isEnabled('x', '/tmp')).toBe(false);
    expect(e.isEnabled('x', '/home/u/proj/src')).toBe(true);
    expect(e.isEnabled('x', '/home/u/proj/vendor')).toBe(false);
    expect(e.isEnabled('x', '/home/u/proj/vendor/lib')).toBe(true);
  });

  it('Windows separators in a folder are read as /', () => {
    const e = new Enablement(dir({ x: { overrides: ['!/C:/work/*'] } }));
    expect(e.isEnabled('x', 'C:\\work\\sub')).toBe(false);
  });

  it('names are matched exactly; inherited object keys are not extensions', () => {
    const e = new Enablement(dir({ x: { overrides: ['!/*'] } }));
    expect(e.isEnabled('X', '/a')).toBe(true);
    expect(e.isEnabled('constructor', '/a')).toBe(true);
    expect(e.isEnabled('toString', '/a')).toBe(true);
  });
});

describe('Enablement: the -e list for one run', () => {
  it('enables only the listed names, case-insensitively, whatever the file says', () => {
    const d = dir({ a: { overrides: ['!/*'] } });
    const e = new Enablement(d, ['A', 'c']);
    expect(e.isEnabled('a', '/w')).toBe(true);
    expect(e.isEnabled('b', '/w')).toBe(false);
    expect(e.isEnabled('C', '/w')).toBe(true);
  });

  it('"none" disables every extension; an empty list means no -e', () => {
    expect(new Enablement(dir(), ['none']).isEnabled('none', '/w')).toBe(false);
    expect(new Enablement(dir(), ['NONE']).isEnabled('a', '/w')).toBe(false);
    expect(new Enablement(dir(), []).isEnabled('a', '/w')).toBe(true);
  });
});

describe('Enablement.read: bad files lose nothing and enable by default', () => {
  it('invalid JSON, a non-object, and malformed entries are read as no rules', () => {
    expect(new Enablement(dir('{ nope')).read()).toEqual({});
    expect(new Enablement(dir('[1,2]')).read()).toEqual({});
    expect(new Enablement(dir('null')).read()).toEqual({});
    expect(
      new Enablement(
        dir({ a: { overrides: ['/x/', 7, null, '!/y/*'] }, b: null, c: { overrides: 'no' }, d: 3 }),
      ).read(),
    ).toEqual({ a: { overrides: ['/x/', '!/y/*'] } });
  });

  it('a file that is not a regular file is refused: no extension is enabled, and the reason is kept', () => {
    const d = dir();
    mkdirSync(join(d, 'extension-enablement.json'));
    const e = new Enablement(d);
    expect(e.isEnabled('a', '/w')).toBe(false);
    expect(e.refused).toMatch(/extension-enablement\.json: it is a directory/);
    expect(() => e.set('a', '/w', true)).toThrow(ConfigFileError);
  });
});

describe('Enablement.set and remove', () => {
  it('writes Gemini CLI rules: a slashed folder with *, ! to disable', () => {
    const d = dir();
    const e = new Enablement(d);
    e.set('a', '/home/u/proj', false);
    expect(fileOf(d)).toEqual({ a: { overrides: ['!/home/u/proj/*'] } });
    expect(e.isEnabled('a', '/home/u/proj/src')).toBe(false);
  });

  it('a new rule replaces the one for the same folder and those below it, not its neighbours', () => {
    const d = dir({ a: { overrides: ['!/w/*', '/w/sub/', '!/w/sub/deep/*', '/w-evil/*', '/other/'] } });
    new Enablement(d).set('a', '/w/', true);
    expect(fileOf(d)).toEqual({ a: { overrides: ['/w-evil/*', '/other/', '/w/*'] } });
  });

  it('a set after isEnabled is seen at once (the cache is dropped)', () => {
    const e = new Enablement(dir());
    expect(e.isEnabled('a', '/w')).toBe(true);
    e.set('a', '/w', false);
    expect(e.isEnabled('a', '/w')).toBe(false);
  });

  it('remove drops only that extension, and writes nothing when it has no rules', () => {
    const d = dir({ a: { overrides: ['!/*'] }, b: { overrides: ['/x/'] } });
    const e = new Enablement(d);
    e.remove('a');
    expect(fileOf(d)).toEqual({ b: { overrides: ['/x/'] } });
    const empty = dir();
    new Enablement(empty).remove('a');
    expect(() => readFileSync(join(empty, 'extension-enablement.json'))).toThrow(/ENOENT/);
  });

  it('creates the extensions folder when it does not exist yet', () => {
    const d = join(base, 'fresh', 'extensions');
    new Enablement(d).set('a', '/w', false);
    expect(fileOf(d)).toEqual({ a: { overrides: ['!/w/*'] } });
  });
});
