import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fixture hook: records each payload it gets as a JSON line in `log`, then acts as `mode` says. */
export const HOOK = join(import.meta.dirname, '../../fixtures/hooks/record-hook.mjs');

/** A shell command line running the fixture hook (each argument single-quoted for the shell). */
export const hook = (log: string, mode: string, extra?: string) =>
  [process.execPath, HOOK, log, mode, ...(extra !== undefined ? [extra] : [])]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');

/** The records the fixture hook wrote to `log` (none when it never ran). */
export const records = (log: string) =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];

/** One matcher-less hook group running `command`, as settings.json writes it. */
export const cmd = (command: string) => [{ hooks: [{ type: 'command', command }] }];
