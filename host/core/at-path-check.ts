import { realpathSync, statSync } from 'node:fs';
import { isWithin } from '../../protocol/path-within.js';
import { MAX_FILE_BYTES } from '../../protocol/file-limits.js';
import { findPassiveCalls } from '../passive-call.js';
import { findResourceRefs } from '../tools/resource-tools.js';
import { findPathRefs, GLOB, locatePathRef } from './at-command.js';

export interface PathProblem {
  path: string;
  problem: string;
}

/**
 * What is wrong with the prompt's `@path` references, checked before anything is sent so the user can
 * fix the prompt: a path that leads outside the workspace directories (by its real path), a link that
 * leads nowhere, or a file over the filesystem server's read limit. A reference that names nothing is
 * not a problem: it is a word (`@alice`), sent as typed. Globs and directories are left to the server.
 * This is for the user's sake only: the server re-checks every path when it reads.
 */
export function findPathProblems(
  text: string,
  roots: string[],
  serverAliases: string[] = [],
  projectTempDir?: string,
): PathProblem[] {
  let rest = text;
  const cut = [...findPassiveCalls(text), ...findResourceRefs(text, serverAliases)].sort((a, b) => b.start - a.start);
  for (const c of cut) rest = rest.slice(0, c.start) + ' '.repeat(c.end - c.start) + rest.slice(c.end);
  const problems: PathProblem[] = [];
  for (const path of new Set(findPathRefs(rest).map((r) => r.path))) {
    if (GLOB.test(path)) continue;
    const problem = problemOf(path, roots, projectTempDir);
    if (problem) problems.push({ path, problem });
  }
  return problems;
}

/**
 * The project temp folder is readable too, as the filesystem server reads it: pasted clipboard images
 * and saved outputs live there.
 */
function problemOf(path: string, roots: string[], projectTempDir?: string): string | undefined {
  const found = locatePathRef(path, roots);
  if (!found) return undefined;
  let real: string;
  try {
    real = realpathSync(found);
  } catch {
    return 'a link that leads nowhere';
  }
  const readable = projectTempDir ? [...roots, projectTempDir] : roots;
  if (!readable.some((r) => isWithin(realOf(r), real))) return `outside the workspace (${roots.join(', ')})`;
  const st = statSync(real);
  if (st.isFile() && st.size > MAX_FILE_BYTES)
    return `too big to read (${mib(st.size)} MB; the limit is ${mib(MAX_FILE_BYTES)} MB)`;
  return undefined;
}

function realOf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

const mib = (n: number) => (n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0);

/** The problems as plain lines for the user (no markdown: the chat and stderr both show it as is). */
export function describePathProblems(problems: PathProblem[]): string {
  const lines = problems.map((p) => `  @${p.path}: ${p.problem}`);
  return [
    `Not sent: ${problems.length === 1 ? 'a referenced path' : 'referenced paths'} cannot be read.`,
    ...lines,
  ].join('\n');
}
