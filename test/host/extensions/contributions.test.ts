import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadedExtension } from '../../../host/extensions/loader.js';
import { extensionContext } from '../../../host/extensions/contributions.js';
import { tempDir } from '../../helpers/tmp.js';

describe('extension context files', () => {
  it('a context file that is a FIFO is skipped, never waited on; the others still load', () => {
    const dir = tempDir('gmc-ext-ctx-');
    const fifo = join(dir, 'GEMINI.md');
    execFileSync('mkfifo', [fifo]);
    const plain = join(dir, 'EXTRA.md');
    writeFileSync(plain, 'extra context\n');
    const ext = { name: 'x', enabled: true, contextFiles: [fifo, plain] } as unknown as LoadedExtension;
    const text = extensionContext([ext]);
    expect(text).toContain('extra context');
    expect(text).not.toContain(`Context from: ${fifo}`);
  });
});
