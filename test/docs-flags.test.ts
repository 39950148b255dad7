import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY, REPO, requireBuilt } from './helpers/paths.js';

describe('the README documents every flag', () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');

  it.each(Object.entries(ENTRY))('every flag %s --help shows is in the README', (_name, entry) => {
    // The servers print their usage on stderr (stdout belongs to the protocol), the host on stdout.
    const r = spawnSync(process.execPath, [requireBuilt(entry), '--help'], { encoding: 'utf8' });
    const help = r.stdout + r.stderr;
    const flags = [...new Set(help.match(/--[a-z][a-z0-9-]+/g) ?? [])];
    expect(flags.length).toBeGreaterThan(0);
    expect(flags.filter((f) => !readme.includes(f))).toEqual([]);
  });
});
