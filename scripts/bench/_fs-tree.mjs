// The big-tree figures: a generated 50,000-file, ~200 MB tree (and a folder of JSON logs with 100 KB
// lines), our search_file_content and glob beside rg and find run on the same tree in the same run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FILES = 50_000;
const EXTS = ['ts', 'md', 'txt', 'json', 'js', 'py', 'css', 'html', 'yml', 'rs'];

/** ~4 KB per file, a `NEEDLE_TOKEN` line in every 800th; a `logs/` folder of long JSON lines. */
export function makeBigTree(root) {
  let n = 0;
  for (let a = 0; n < FILES; a++) {
    for (let b = 0; b < 10 && n < FILES; b++) {
      const dir = join(root, `pkg${a}`, `mod${b}`);
      mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 100 && n < FILES; c++, n++) {
        const needle = n % 800 === 0 ? '\nconst x = NEEDLE_TOKEN; // marker\n' : '\n';
        const block = `// file ${n}\nexport function f${n}(a, b) {\n  return a + b * ${n}; // ${'pad '.repeat(40)}\n}\n${needle}`;
        writeFileSync(join(dir, `file${c}.${EXTS[c % EXTS.length]}`), block.repeat(16));
      }
    }
  }
  mkdirSync(join(root, 'logs'));
  for (let f = 0; f < 20; f++) {
    const line = JSON.stringify({
      level: 'info',
      file: f,
      events: Array.from({ length: 2500 }, (_, i) => ({ i, msg: `LOGMARK event ${i}` })),
    });
    writeFileSync(join(root, 'logs', `run${f}.json`), `${line}\n${line}\n`);
  }
}

export const WIDE_DIRS = 500;
export const WIDE_FILES_PER_DIR = 100;
const WIDE_LINES = 60;
/** One `TODO` line every this many lines of the wide tree, counted across files: ≈ 6,061 matches. */
const WIDE_TODO_EVERY = 495;

/**
 * The issue's wide tree: 500 folders `dir{d}` × 100 files `file{f}.ts` × 60 lines (50,000 files, all `.ts`,
 * so `glob **\/*.ts` lists every one), `TODO` on one line in every 495 (6,061 matches).
 */
export function makeWideTree(root) {
  let line = 0;
  for (let d = 0; d < WIDE_DIRS; d++) {
    const dir = join(root, `dir${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < WIDE_FILES_PER_DIR; f++) {
      const lines = [];
      for (let l = 0; l < WIDE_LINES; l++, line++) {
        lines.push(
          line % WIDE_TODO_EVERY === 0
            ? `  // TODO: revisit step ${line} of dir${d}/file${f}`
            : `export const v${l} = computeValue(${d}, ${f}, ${l}); // plain line`,
        );
      }
      writeFileSync(join(dir, `file${f}.ts`), `${lines.join('\n')}\n`);
    }
  }
}

/** `file:line` of rg's matches sorted by path, the first `max`: what our output must list. */
export function rgSortedFirst(root, pattern, max) {
  const r = spawnSync('rg', ['-n', '-i', '--hidden', '--no-heading', '--sort', 'path', '--', pattern, '.'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .slice(0, max)
    .map((l) => {
      const m = /^(?:\.\/)?(.*?):(\d+):/.exec(l);
      return `${m[1]}:${m[2]}`;
    });
}

/** `file:line` of the matching lines of our output. */
export function ourMatches(text) {
  const out = [];
  let file = '';
  for (const l of text.split('\n')) {
    if (l.startsWith('File: ')) file = l.slice(6);
    const m = /^L(\d+): /.exec(l);
    if (m) out.push(`${file}:${m[1]}`);
  }
  return out;
}

export const rgRun = (root, pattern) => () =>
  spawnSync('rg', ['-n', '-i', '--no-heading', '--hidden', '--', pattern, '.'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });

export const findRun = (root, name) => () =>
  spawnSync('find', ['.', '-iname', name, '-type', 'f', '-printf', '%T@ %p\n'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
