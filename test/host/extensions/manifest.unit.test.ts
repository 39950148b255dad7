import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../../host/extensions/manifest.js';

describe('extension manifests', () => {
  it('servers named __proto__ or constructor are plain names, kept like any other', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gmc-manifest-'));
    // Written by hand: JSON.stringify would not keep a "__proto__" key.
    writeFileSync(
      join(dir, 'gemini-extension.json'),
      '{"name":"odd","version":"1.0.0","mcpServers":{"__proto__":{"command":"a"},"constructor":{"command":"${extensionPath}/b"}}}',
    );
    const m = readManifest(dir, '/ws');
    const servers = m.mcpServers ?? {};
    expect(Object.keys(servers).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.hasOwn(servers, '__proto__')).toBe(true);
    expect((servers as Record<string, { command?: string }>).constructor?.command).toBe(`${dir}/b`);
  });
});
