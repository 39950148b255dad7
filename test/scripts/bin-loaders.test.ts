import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY } from '../helpers/paths.js';

describe('bin loaders: V8 code cache where Node has one, the bundle either way', () => {
  it('every bin is a loader that turns the cache on, then imports its bundle', () => {
    for (const bin of Object.values(ENTRY)) {
      const text = readFileSync(bin, 'utf8');
      expect(text).toContain('module.enableCompileCache?.()');
      const target = /await import\('\.\/(impl\/[^']+)'\)/.exec(text)?.[1];
      expect(target && existsSync(join(bin, '..', target)), `${bin} imports a missing bundle`).toBe(true);
    }
  });

  it('runs on this Node (with or without enableCompileCache); where it exists, the cache directory fills', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gmc-ccache-'));
    try {
      const r = spawnSync(process.execPath, [ENTRY.host, '--version'], {
        env: { ...process.env, NODE_COMPILE_CACHE: dir },
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
      const hasCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
      expect(readdirSync(dir).length > 0).toBe(hasCache);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
