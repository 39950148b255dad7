import { parse } from 'shell-quote';

/**
 * Splits a configured command line into program + args the way a shell would quote it, so it can be
 * spawned without a shell. `$VAR` expands from `env` (upstream expands to nothing, which surprises
 * users); anything that needs a real shell (pipes, redirects, `;`, `&&`, globs, comments, `$(...)`) is
 * refused with a message naming the token, because silently dropping it would run a different command.
 */
export function splitCommand(line: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const words: string[] = [];
  for (const entry of parse(line, (key) => env[key] ?? '')) {
    if (typeof entry === 'string') {
      words.push(entry);
      continue;
    }
    const token = 'comment' in entry ? `#${entry.comment}` : entry.op === 'glob' ? entry.pattern : entry.op;
    throw new Error(
      `command "${line}" contains "${token}", which needs a shell; the command runs without one, so ` +
        'use only a program and its arguments (wrap pipelines in a script)',
    );
  }
  if (words.length === 0 || words[0] === '') throw new Error(`command "${line}" is empty`);
  return words;
}
