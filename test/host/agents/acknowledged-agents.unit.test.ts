import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acknowledge,
  acknowledgementsPath,
  isAcknowledged,
  readAcknowledgements,
} from '../../../host/agents/acknowledged-agents.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-acks-');
let n = 0;
const fileIn = (content?: string) => {
  const file = acknowledgementsPath(join(base, `home${++n}`));
  if (content !== undefined) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return file;
};

describe('acknowledgementsPath', () => {
  it("is Gemini CLI 0.61's file under the Gemini home", () => {
    expect(acknowledgementsPath('/h/u')).toBe('/h/u/.gemini/acknowledgments/agents.json');
  });
});

describe('readAcknowledgements', () => {
  it('a missing, broken or non-object file acknowledges nothing', () => {
    expect(readAcknowledgements(fileIn())).toEqual({});
    expect(readAcknowledgements(fileIn('{ broken'))).toEqual({});
    expect(readAcknowledgements(fileIn('["/p"]'))).toEqual({});
    expect(readAcknowledgements(fileIn('"text"'))).toEqual({});
    expect(readAcknowledgements(fileIn('null'))).toEqual({});
  });

  it('a folder in place of the file acknowledges nothing (refused, not waited on)', () => {
    const file = fileIn();
    mkdirSync(file, { recursive: true });
    expect(readAcknowledgements(file)).toEqual({});
  });
});

describe('isAcknowledged', () => {
  const acks = { '/p': { helper: 'abc' }, '/q': 'not an object' } as unknown as Record<string, Record<string, string>>;

  it('only for this project, this name and exactly this hash', () => {
    expect(isAcknowledged(acks, '/p', 'helper', 'abc')).toBe(true);
    expect(isAcknowledged(acks, '/p', 'helper', 'abd')).toBe(false);
    expect(isAcknowledged(acks, '/p', 'other', 'abc')).toBe(false);
    expect(isAcknowledged(acks, '/p/sub', 'helper', 'abc')).toBe(false);
    // A string in place of the project's map is not indexed: its first letter is no hash.
    expect(isAcknowledged(acks, '/q', '0', 'n')).toBe(false);
  });

  it('an empty hash never matches a missing entry', () => {
    expect(isAcknowledged(acks, '/p', 'missing', '')).toBe(false);
    expect(isAcknowledged({}, '/p', 'helper', '')).toBe(false);
  });
});

describe('acknowledge', () => {
  it('adds to the project, keeps other projects and agents, and replaces an old hash', () => {
    const file = fileIn(JSON.stringify({ '/other': { x: '1' }, '/p': { a: 'old', b: '2' } }));
    acknowledge(file, '/p', [
      { name: 'a', hash: 'new' },
      { name: 'c', hash: '3' },
    ]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      '/other': { x: '1' },
      '/p': { a: 'new', b: '2', c: '3' },
    });
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);
  });

  it('creates the file (and its folder) on first use', () => {
    const file = fileIn();
    acknowledge(file, '/p', [{ name: 'a', hash: 'h' }]);
    expect(readAcknowledgements(file)).toEqual({ '/p': { a: 'h' } });
    expect(isAcknowledged(readAcknowledgements(file), '/p', 'a', 'h')).toBe(true);
  });
});
