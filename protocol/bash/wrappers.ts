import { basename } from 'node:path';
import { literal, type Word } from './words.js';

/**
 * Commands that run another command given in their arguments. For approvals the wrapped command
 * is what matters, so the command model looks through them:
 * - transparent wrappers (`env`, `nice`, `timeout`, `xargs`, `bash -c`, …) only adjust how the
 *   inner command runs; the inner command is the root and the wrapper is dropped;
 * - significant wrappers (`sudo`, `doas`, `su -c`, `find -exec`, `watch`) matter themselves, so
 *   both the wrapper and the inner command must be allowed.
 * A wrapper whose inner command cannot be known (a dynamic script) stays a root on its own.
 */
export interface Unwrapped {
  /** The wrapper stays a command of its own for roots and allowances. */
  keepWrapper: boolean;
  /** Word lists of the commands it runs. */
  commands: Word[][];
  /** Shell source it runs (`bash -c`, `eval`, `su -c`, `watch`), parsed recursively. */
  scripts: string[];
  /** `NAME=value` words passed to the inner command's environment (`env`, `sudo`). */
  assignments: Word[];
  /** It runs a command that cannot be known before it runs (`bash -c "$C"`, `env -S '…'`, `eval "$x"`). */
  opaque?: true;
}

interface OptSpec {
  /** Short option letters that take an argument. */
  short?: string;
  /** Long options (without `--`) that take an argument when not written `--x=v`. */
  long?: string[];
}

/** Index of the first operand after the options starting at `i`. */
function skipOptions(args: Word[], i: number, spec: OptSpec): number {
  while (i < args.length) {
    const w = args[i];
    // A dynamic word could be anything; treating it as the operand makes it the (unknown) command.
    if (w.dynamic) return i;
    const v = w.value;
    if (v === '--') return i + 1;
    if (v.startsWith('--')) {
      const name = v.slice(2);
      i += !name.includes('=') && spec.long?.includes(name) ? 2 : 1;
      continue;
    }
    if (v.startsWith('-') && v.length > 1) {
      let consumed = 1;
      for (let j = 1; j < v.length; j++) {
        if (spec.short?.includes(v[j])) {
          if (j === v.length - 1) consumed = 2;
          break;
        }
      }
      i += consumed;
      continue;
    }
    return i;
  }
  return i;
}

const isAssignment = (w: Word) => !w.dynamic && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value);
const flagsOf = (args: Word[], end: number) =>
  args
    .slice(0, end)
    .filter((w) => !w.dynamic && /^-[^-]/.test(w.value))
    .map((w) => w.value)
    .join('');
const wrap = (
  keepWrapper: boolean,
  commands: Word[][],
  scripts: string[] = [],
  assignments: Word[] = [],
): Unwrapped => ({
  keepWrapper,
  commands,
  scripts,
  assignments,
});
const opaque = (): Unwrapped => ({ ...wrap(true, []), opaque: true });
const inner = (args: Word[], i: number, keep = false): Unwrapped | null =>
  i < args.length ? wrap(keep, [args.slice(i)]) : null;

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'rbash']);

/** Simple transparent wrappers: option spec, then (optionally) one operand before the command. */
const SIMPLE: Record<string, { spec: OptSpec; skipOperands?: number; keep?: boolean }> = {
  nice: { spec: { short: 'n', long: ['adjustment'] } },
  nohup: { spec: {} },
  builtin: { spec: {} },
  setsid: { spec: {} },
  time: { spec: { short: 'fo', long: ['format', 'output'] } },
  timeout: { spec: { short: 'sk', long: ['signal', 'kill-after'] }, skipOperands: 1 },
  stdbuf: { spec: { short: 'ioe', long: ['input', 'output', 'error'] } },
  ionice: { spec: { short: 'cnpPu', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] } },
  doas: { spec: { short: 'uC' }, keep: true },
  coproc: { spec: {} },
};

/** Returns how `words` (name first) wraps other commands, or null for an ordinary command. */
export function unwrap(words: Word[]): Unwrapped | null {
  const head = words[0];
  if (!head || head.dynamic) return null;
  const name = basename(head.value);
  const args = words.slice(1);

  if (SHELLS.has(name)) return unwrapShell(args);
  const simple = SIMPLE[name];
  if (simple) return inner(args, skipOptions(args, 0, simple.spec) + (simple.skipOperands ?? 0), simple.keep);

  switch (name) {
    case 'env': {
      let i = 0;
      const assignments: Word[] = [];
      for (;;) {
        i = skipOptions(args, i, { short: 'uCS', long: ['unset', 'chdir', 'split-string'] });
        if (args[i]?.value === '-' && !args[i].dynamic) i++;
        else break;
      }
      // `env -S` splits a string by its own rules: not something to second-guess.
      if (/S/.test(flagsOf(args, i)) || args.some((w) => !w.dynamic && w.value.startsWith('--split-string')))
        return opaque();
      while (i < args.length && isAssignment(args[i])) assignments.push(args[i++]);
      return i < args.length ? wrap(false, [args.slice(i)], [], assignments) : null;
    }
    case 'sudo': {
      let i = skipOptions(args, 0, {
        short: 'ugpCDrtTUh',
        long: [
          'user',
          'group',
          'prompt',
          'close-from',
          'chdir',
          'role',
          'type',
          'command-timeout',
          'other-user',
          'host',
        ],
      });
      const assignments: Word[] = [];
      while (i < args.length && isAssignment(args[i])) assignments.push(args[i++]);
      return i < args.length ? wrap(true, [args.slice(i)], [], assignments) : null;
    }
    case 'command': {
      const i = skipOptions(args, 0, {});
      if (/[vV]/.test(flagsOf(args, i))) return null; // a lookup, not a run
      return inner(args, i);
    }
    case 'exec':
      return inner(args, skipOptions(args, 0, { short: 'a' }));
    case 'xargs': {
      const i = skipOptions(args, 0, {
        short: 'adEILnPs',
        long: ['arg-file', 'delimiter', 'eof', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
      });
      // Without a command xargs runs echo.
      return i < args.length ? wrap(false, [args.slice(i)]) : wrap(false, [[literal('echo')]]);
    }
    case 'eval':
      return args.length === 0 ? null : scriptOf(args, false);
    case 'su': {
      const idx = args.findIndex((w) => !w.dynamic && (w.value === '-c' || w.value === '--command'));
      const joined = args.find((w) => !w.dynamic && w.value.startsWith('--command='));
      if (joined) return wrap(true, [], [joined.value.slice('--command='.length)]);
      if (idx < 0) return null;
      const script = args[idx + 1];
      return !script || script.dynamic ? opaque() : wrap(true, [], [script.value]);
    }
    case 'watch': {
      const i = skipOptions(args, 0, { short: 'nq', long: ['interval', 'equexit'] });
      if (i >= args.length) return null;
      if (/x/.test(flagsOf(args, i)) || args.slice(0, i).some((w) => w.value === '--exec'))
        return wrap(true, [args.slice(i)]);
      return scriptOf(args.slice(i), true);
    }
    case 'find':
      return unwrapFind(args);
    default:
      return null;
  }
}

/** Arguments joined by spaces and run as shell code (`eval`, `watch`). */
function scriptOf(args: Word[], keep: boolean): Unwrapped {
  if (args.some((w) => w.dynamic)) return opaque();
  return wrap(keep, [], [args.map((w) => w.value).join(' ')]);
}

function unwrapShell(args: Word[]): Unwrapped | null {
  let i = 0;
  let hasC = false;
  let hasS = false;
  while (i < args.length) {
    const w = args[i];
    if (w.dynamic) break;
    const v = w.value;
    if (v === '--' || v === '-') {
      i++;
      break;
    }
    if (v.startsWith('--')) {
      i += v === '--rcfile' || v === '--init-file' ? 2 : 1;
      continue;
    }
    if ((v.startsWith('-') || v.startsWith('+')) && v.length > 1) {
      if (v[0] === '-' && v.includes('c')) hasC = true;
      if (v[0] === '-' && v.includes('s')) hasS = true;
      // -o/+o take an option name
      i += /o/.test(v.slice(1)) && v.length === 2 ? 2 : 1;
      continue;
    }
    break;
  }
  // With no script file (or -s) the shell runs what reaches its standard input (`echo 'rm v' | sh`): code
  // known only at run time. A script file: the shell itself is the command.
  if (!hasC) return hasS || i >= args.length ? opaque() : null;
  const script = args[i];
  if (!script || script.dynamic) return opaque();
  return wrap(false, [], [script.value]);
}

function unwrapFind(args: Word[]): Unwrapped | null {
  const commands: Word[][] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (args[i].dynamic || !['-exec', '-execdir', '-ok', '-okdir'].includes(v)) continue;
    let j = i + 1;
    while (j < args.length && !(!args[j].dynamic && (args[j].value === ';' || args[j].value === '+'))) j++;
    if (j > i + 1) commands.push(args.slice(i + 1, j));
    i = j;
  }
  return commands.length ? wrap(true, commands) : null;
}
