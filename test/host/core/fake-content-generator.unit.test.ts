import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReplayFile } from '../../../host/core/fake-content-generator.js';
import { asFatal, EXIT } from '../../../host/errors.js';
import { tempDir } from '../../helpers/tmp.js';

const dir = tempDir('gmc-replay-');

describe('readReplayFile', () => {
  it('reads one entry per line, skipping blank lines', () => {
    const file = join(dir, 'ok.jsonl');
    writeFileSync(file, '{"method":"generateContent","response":{"a":1}}\n\n{"method":"countTokens","response":{}}\n');
    expect(readReplayFile(file).map((e) => e.method)).toEqual(['generateContent', 'countTokens']);
  });

  it('a missing or malformed file is bad input: exit 42 from the one table, naming the line', () => {
    const missing = () => readReplayFile(join(dir, 'nope.jsonl'));
    expect(missing).toThrow(/Cannot read fake responses file/);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"method":"generateContent","response":{}}\nnot json\n');
    for (const read of [missing, () => readReplayFile(bad)]) {
      try {
        read();
        expect.unreachable();
      } catch (err) {
        expect(asFatal(err).exitCode).toBe(EXIT.input);
      }
    }
    expect(() => readReplayFile(bad)).toThrow(/bad\.jsonl:2: invalid replay line/);
  });
});
