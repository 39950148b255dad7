import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BENCH = join(import.meta.dirname, '../../scripts/bench');

/** `const { a, b } = await import(lib('host/x.ts'))` lines of the benches: the host modules they bundle. */
function hostImports(): { bench: string; module: string; names: string[] }[] {
  const out: { bench: string; module: string; names: string[] }[] = [];
  for (const bench of readdirSync(BENCH).filter((f) => f.endsWith('.mjs'))) {
    const text = readFileSync(join(BENCH, bench), 'utf8');
    for (const m of text.matchAll(/const \{([^}]+)\} = await import\(lib\('([^']+)'\)\)/g)) {
      out.push({ bench, module: m[2]!, names: m[1]!.split(',').map((n) => n.trim().split(':')[0]!.trim()) });
    }
  }
  return out;
}

// The benches bundle host modules from source at run time, so a moved export breaks them only when run.
describe('the benches import what the host exports', () => {
  const imports = hostImports();

  it('finds the benches that bundle host modules', () => {
    expect(imports.map((i) => i.bench)).toEqual(expect.arrayContaining(['host-core.mjs', 'hooks-call.mjs']));
  });

  it.each(imports.map((i) => [`${i.bench}: ${i.names.join(', ')} from ${i.module}`, i] as const))(
    '%s',
    async (_, i) => {
      const mod = (await import(join(import.meta.dirname, '../..', i.module))) as Record<string, unknown>;
      for (const name of i.names) expect(typeof mod[name], `${name} in ${i.module}`).toBe('function');
    },
  );
});
