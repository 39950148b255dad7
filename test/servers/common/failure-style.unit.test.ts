import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/paths.js';

/** Every tool file of every server. */
function toolFiles(): string[] {
  const out: string[] = [];
  for (const root of ['servers', 'discovery-bridge']) {
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory() && e.name !== 'node_modules') walk(p);
        else if (e.isFile() && p.endsWith('.ts') && p.includes('/tools/')) out.push(p);
      }
    };
    walk(join(REPO, root));
  }
  return out;
}

describe('tool handlers use one failure style per file', () => {
  it('no tool file both returns errorResult and throws ToolError', () => {
    const files = toolFiles();
    expect(files.length).toBeGreaterThan(8);
    const mixed = files.filter((f) => {
      const s = readFileSync(f, 'utf8');
      const returns = /errorResult\(|cancelledResult\(/.test(s);
      const throws = /throw (new (Tool|FileRead)Error\(|userCancelled\(|fail\(|failure\()/.test(s);
      return returns && throws;
    });
    expect(mixed.map((f) => f.slice(REPO.length))).toEqual([]);
  });
});
