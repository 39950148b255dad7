import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/paths.js';

// The layout's rules, checked on every import (static, `export … from`, `import type` and dynamic
// `import()`), so a wrong import fails here in milliseconds instead of in review.

const SOURCE_ROOTS = ['protocol', 'host', 'servers', 'discovery-bridge', 'scripts'];

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(REPO, dir))) {
    if (name === 'node_modules' || name === 'dist') continue;
    const rel = join(dir, name);
    if (statSync(join(REPO, rel)).isDirectory()) walk(rel, out);
    else if (/\.(ts|mts|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Import specifiers of a file; comment lines are left out so prose about imports is not read as one. */
function importsOf(text: string): string[] {
  const code = text
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l))
    .join('\n');
  const specs: string[] = [];
  const re =
    /(?:^|[;\s])(?:import|export)\s[^'";]*?\sfrom\s*(['"])([^'"]+)\1|import\(\s*(['"`])([^'"`$]+)\3\s*\)|^\s*import\s*(['"])([^'"]+)\5|require\(\s*(['"])([^'"]+)\7\s*\)/gm;
  for (const m of code.matchAll(re)) specs.push(m[2] ?? m[4] ?? m[6] ?? m[8]!);
  return specs;
}

/**
 * `import(…)` and `require(…)` whose module is not written out (a variable, a template with `${…}`, a
 * concatenation): no rule below could check where they lead, so they are reported instead.
 */
function computedImportsOf(text: string): string[] {
  const code = text
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l))
    .join('\n');
  const out: string[] = [];
  for (const m of code.matchAll(/\b(import|require)\(\s*([^)\s][^)]*)\)/g)) {
    const arg = m[2]!.trim();
    if (/^(['"])[^'"]+\1$/.test(arg) || /^`[^`$]+`$/.test(arg)) continue;
    out.push(`${m[1]}(${arg})`);
  }
  return out;
}

/** The source file a relative specifier names (`./x.js` is `./x.ts` in the tree), or undefined. */
function resolvesTo(path: string): string | undefined {
  const candidates = [
    path,
    path.replace(/\.js$/, '.ts'),
    path.replace(/\.mjs$/, '.mts'),
    `${path}.ts`,
    join(path, 'index.ts'),
  ];
  return candidates.find((c) => {
    try {
      return statSync(join(REPO, c)).isFile();
    } catch {
      return false;
    }
  });
}

type Edge = { from: string; to: string };

/** Every import of ours (a relative path), as repo paths; bare package names are kept as they are. */
function collectEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of SOURCE_ROOTS.flatMap((r) => walk(r))) {
    for (const spec of importsOf(readFileSync(join(REPO, file), 'utf8'))) {
      const to = spec.startsWith('.') ? relative(REPO, resolve(REPO, dirname(file), spec)) : spec;
      edges.push({ from: file, to });
    }
  }
  return edges;
}

const EDGES = collectEdges();
const under = (path: string, ...dirs: string[]) => dirs.some((d) => path === d || path.startsWith(`${d}/`));
const ours = (path: string) => under(path, ...SOURCE_ROOTS, 'test');
const violations = (from: (f: string) => boolean, bad: (to: string) => boolean) =>
  EDGES.filter((e) => from(e.from) && bad(e.to)).map((e) => `${e.from} → ${e.to}`);

describe('import boundaries', () => {
  it('every import of ours names a file that exists, and every dynamic import names its module literally', () => {
    // Text the build writes into dist/bin (a bin shim's require of the loader beside it), not an import.
    const generated = ['scripts/bundle.mjs → scripts/impl/bin-loader.cjs'];
    const unresolved = EDGES.filter((e) => ours(e.to) && !resolvesTo(e.to))
      .map((e) => `${e.from} → ${e.to}`)
      .filter((e) => !generated.includes(e));
    expect(unresolved).toEqual([]);
    // The product's layers; build and bench scripts load modules by computed names on purpose.
    const layered = ['protocol', 'host', 'servers', 'discovery-bridge'];
    const computed = layered
      .flatMap((r) => walk(r))
      .flatMap((f) => computedImportsOf(readFileSync(join(REPO, f), 'utf8')).map((c) => `${f}: ${c}`));
    expect(computed).toEqual([]);
    expect(computedImportsOf("await import(`./tools/${name}.js`); require(base + '.cjs'); import('./ok.js')")).toEqual([
      'import(`./tools/${name}.js`)',
      "require(base + '.cjs')",
    ]);
  });

  it('the editor agent (host/acp) is a third consumer of core: it imports neither the chat nor headless, nor they it', () => {
    expect(
      violations(
        (f) => under(f, 'host/acp'),
        (t) => under(t, 'host/ui', 'host/cli'),
      ),
    ).toEqual([]);
    expect(
      violations(
        (f) => under(f, 'host/ui', 'host/cli', 'host/core'),
        (t) => under(t, 'host/acp'),
      ),
    ).toEqual([]);
  });

  it('reads every kind of import, and sees imports at all', () => {
    const text = [
      "import a from './a.js';",
      "import type { B } from '../b.js';",
      'import {\n  c,\n  d,\n} from "./c.js";',
      "export { e } from './e.js';",
      "const f = await import('./f.js');",
      "import './side-effect.js';",
      "// import nope from './comment.js';",
      "const g = require('./g.cjs');",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a.js', '../b.js', './c.js', './e.js', './f.js', './side-effect.js', './g.cjs']);
    expect(EDGES.length).toBeGreaterThan(500);
  });

  it('protocol/ imports nothing of ours outside itself', () => {
    expect(
      violations(
        (f) => under(f, 'protocol'),
        (t) => ours(t) && !under(t, 'protocol'),
      ),
    ).toEqual([]);
  });

  it('servers import only protocol/, servers/common and their own folder — never the host', () => {
    const own = (f: string) => f.split('/').slice(0, 2).join('/');
    const bad = EDGES.filter(
      (e) => under(e.from, 'servers') && ours(e.to) && !under(e.to, 'protocol', 'servers/common', own(e.from)),
    ).map((e) => `${e.from} → ${e.to}`);
    expect(bad).toEqual([]);
  });

  it('discovery-bridge imports only protocol/, servers/common and itself', () => {
    const bad = violations(
      (f) => under(f, 'discovery-bridge'),
      (t) => ours(t) && !under(t, 'protocol', 'servers/common', 'discovery-bridge'),
    );
    expect(bad).toEqual([]);
  });

  it('the host imports no server code (servers are separate processes)', () => {
    expect(
      violations(
        (f) => under(f, 'host'),
        (t) => under(t, 'servers', 'discovery-bridge', 'test'),
      ),
    ).toEqual([]);
  });

  it('host core never imports the chat (host/ui) or the headless CLI (host/cli)', () => {
    expect(
      violations(
        (f) => under(f, 'host/core'),
        (t) => under(t, 'host/ui', 'host/cli'),
      ),
    ).toEqual([]);
  });

  it('the chat (host/ui) and the headless CLI (host/cli) are two consumers of core: neither imports the other', () => {
    expect(
      violations(
        (f) => under(f, 'host/ui'),
        (t) => under(t, 'host/cli'),
      ),
    ).toEqual([]);
    expect(
      violations(
        (f) => under(f, 'host/cli'),
        (t) => under(t, 'host/ui'),
      ),
    ).toEqual([]);
  });

  it('only the chat (host/ui) loads blessed', () => {
    expect(
      violations(
        (f) => !under(f, 'host/ui'),
        (t) => t === 'blessed' || t.startsWith('blessed/'),
      ),
    ).toEqual([]);
  });

  // Classic zod cannot be tree-shaken: one import of it makes every host start evaluate all of it
  // (docs/architecture.md, "Build and start-up"). Servers' tools keep classic zod.
  it('the host and protocol/ build schemas with zod/mini only, and set zod up through its core', () => {
    expect(
      violations(
        (f) => under(f, 'host', 'protocol'),
        (t) => (t === 'zod' || t.startsWith('zod/')) && t !== 'zod/mini' && t !== 'zod/v4/core' && t !== 'zod/locales',
      ),
    ).toEqual([]);
  });

  // zod's `z` export is a namespace object: imported by name it is a value, which the bundler builds at start
  // (~850 getters) and keeps with all of classic zod; `import * as z` lets it resolve each `z.x` statically.
  it("classic zod is imported as a namespace (import * as z), never as zod's `z` value", () => {
    const named = SOURCE_ROOTS.flatMap((r) => walk(r)).filter((f) =>
      /^\s*import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*['"]zod(\/v4)?['"]/m.test(readFileSync(join(REPO, f), 'utf8')),
    );
    expect(named).toEqual([]);
  });

  it('the scheduler imports only protocol/ and itself (policy, executor and lookup are interfaces)', () => {
    const bad = violations(
      (f) => under(f, 'host/scheduler'),
      (t) => ours(t) && !under(t, 'protocol', 'host/scheduler'),
    );
    expect(bad).toEqual([]);
  });

  it('no build script imports from test/', () => {
    const bench = (f: string) => under(f, 'scripts/bench') || f === 'scripts/bench.mjs';
    expect(
      violations(
        (f) => under(f, 'scripts') && !bench(f),
        (t) => under(t, 'test'),
      ),
    ).toEqual([]);
  });
});

/**
 * The unit a folder cycle is counted in: a folder of host/ (host/core, host/ui with its subfolders), a file
 * directly in host/ (host/errors.ts), one server, protocol/, discovery-bridge/.
 */
function unitOf(path: string): string | undefined {
  const p = path.split('/');
  if (p[0] === 'host') return p.length === 2 ? path.replace(/\.[jt]s$/, '') : `host/${p[1]}`;
  if (p[0] === 'servers') return `servers/${p[1]}`;
  if (p[0] === 'protocol' || p[0] === 'discovery-bridge') return p[0];
  return undefined;
}

/** Strongly connected components of the unit graph with more than one unit (Tarjan). */
function folderCycles(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = unitOf(from);
    const b = unitOf(to);
    if (!a || !b || a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    if (!next.has(b)) next.set(b, new Set());
    next.get(a)!.add(b);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) out.push(scc.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('folder cycles', () => {
  it('finds a cycle when there is one', () => {
    const e = (from: string, to: string) => ({ from, to });
    expect(folderCycles([e('host/a/x.ts', 'host/b/y.ts'), e('host/b/z.ts', 'host/c/w.ts')])).toEqual([]);
    expect(
      folderCycles([e('host/a/x.ts', 'host/b/y.ts'), e('host/b/z.ts', 'host/c/w.ts'), e('host/c/w.ts', 'host/a/q.ts')]),
    ).toEqual([['host/a', 'host/b', 'host/c']]);
  });

  it('the host, the servers and protocol/ have none', () => {
    expect(folderCycles(EDGES)).toEqual([]);
  });
});
