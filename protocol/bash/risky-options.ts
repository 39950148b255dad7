/**
 * Options that turn a command people allow-list as "read-only" into one that writes files or runs
 * programs: `git log --output=.git/config`, `sort -o`, `find -fprint`, `rg --pre`. A prefix rule
 * (`git log`) covers every argument after it, so the host asks for these instead of approving them.
 * False alarms only cost a question; a miss runs something nobody approved.
 */

export interface CommandArgs {
  /** Root command (base name). */
  name: string;
  args: string[];
  /** Per argument: its value is known only at run time (a glob, a variable). */
  argsDynamic?: boolean[];
}

/** Long options that name an output file, a log or a program, for any command. */
const ANY_LONG =
  /^--(output|out-file|output-file|output-dir|output-directory|output-document|log-file|dump-header|cookie-jar|trace|trace-ascii|exec|pre|upload-pack|receive-pack|to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|open-files-in-pager|pager|in-place|append-output|git-dir|work-tree|exec-path|config-env)(=|$)/;

/** Per command: short option letters that write or run, and checks of their own. */
const SHORT: Record<string, string> = {
  sort: 'o',
  curl: 'oOcDK',
  wget: 'oOaP',
  tar: 'xcruAIF',
  less: 'oO',
  man: 'PH',
  sed: 'i',
  fd: 'xX',
  fdfind: 'xX',
  git: 'oO',
  gcc: 'o',
  cc: 'o',
};

/** `find` actions that write or run. */
const FIND_ACTIONS = new Set([
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
  '-delete',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
]);
/** Commands whose plain operands after the first are written to. */
const WRITES_OPERANDS: Record<string, number> = { tee: 0, uniq: 1, dd: -1 };
/** git subcommands where `-u` names the remote program to run. */
const GIT_REMOTE_SUBCOMMANDS = new Set(['ls-remote', 'fetch', 'clone', 'pull', 'archive', 'push']);
/** Commands where an argument known only at run time may expand to one of the options above. */
const DYNAMIC_SENSITIVE = new Set([
  ...Object.keys(SHORT),
  'find',
  'tee',
  'uniq',
  'dd',
  'rg',
  'awk',
  'gawk',
  'mawk',
  'nawk',
]);
/** Interpreters whose script can write or run anything. */
const SCRIPTED = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** Why the command is not auto-approvable even when a prefix rule covers it, or undefined. */
export function riskyOption(cmd: CommandArgs): string | undefined {
  const { name, args } = cmd;
  const dynamic = cmd.argsDynamic ?? [];
  let endOfOptions = args.length;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--' && name !== 'find') {
      endOfOptions = i;
      break;
    }
    // A glob or variable can expand to any option (a file named `--output=x` matches `*`).
    if (dynamic[i] && DYNAMIC_SENSITIVE.has(name))
      return `${name}: an argument known only at run time may be an option`;
    if (ANY_LONG.test(a)) return `${name} ${a.split('=')[0]} writes a file or runs a program`;
    if (name === 'find' && FIND_ACTIONS.has(a)) return `find ${a} writes or runs`;
    if (/^-[^-]/.test(a) && shortHit(name, a, args, i)) return `${name} ${a} writes a file or runs a program`;
  }
  return operandWrite(name, args.slice(0, endOfOptions), dynamic) ?? scripted(name, args);
}

function shortHit(name: string, arg: string, args: string[], i: number): boolean {
  const letters = SHORT[name];
  if (!letters) return false;
  // wget/curl writing to standard output is a read.
  if ((arg === '-O-' || (arg === '-O' && args[i + 1] === '-')) && name === 'wget') return false;
  if (name === 'git') {
    // git: -o is format-patch's output directory and grep's -O opens a pager; `-u` on remote commands.
    const sub = args.find((a) => !a.startsWith('-')) ?? '';
    // `git -c key=value` sets any configuration key for the command, program-running ones included.
    if (arg === '-c' && args.indexOf(arg) < args.indexOf(sub)) return true;
    if (GIT_REMOTE_SUBCOMMANDS.has(sub) && arg.slice(1).includes('u')) return true;
    return (sub === 'format-patch' && arg.startsWith('-o')) || (sub === 'grep' && arg.startsWith('-O'));
  }
  if (name === 'tar') return [...arg.slice(1)].some((c) => letters.includes(c)) || /^[xcruA]/.test(args[0] ?? '');
  return [...arg.slice(1)].some((c) => letters.includes(c));
}

function operandWrite(name: string, args: string[], dynamic: boolean[]): string | undefined {
  if (name === 'tar' && /^[xcruA]/.test(args[0] ?? '')) return 'tar writes an archive or its members';
  if (name === 'wget' && !args.some((a) => /^(-O-|--output-document=-|--spider)$/.test(a)))
    return 'wget saves to a file';
  const skip = WRITES_OPERANDS[name];
  if (skip === undefined) return undefined;
  if (name === 'dd') return args.some((a) => a.startsWith('of=')) ? 'dd of= writes a file' : undefined;
  const operands = args.filter((a, i) => !a.startsWith('-') || dynamic[i]);
  return operands.length > skip ? `${name} writes to ${operands[skip]}` : undefined;
}

function scripted(name: string, args: string[]): string | undefined {
  if (SCRIPTED.has(name) && args.some((a) => /system|getline|[>|]/.test(a))) return `${name} script writes or runs`;
  // sed: the w/W commands and the w flag write files; e runs a command.
  if (
    name === 'sed' &&
    args.some((a) => !a.startsWith('-') && /(^|[;\n}/])\s*[0-9,$!]*\s*[wWe]\b|\/[gpIiMm0-9]*[we]/.test(a))
  ) {
    return 'sed script writes or runs';
  }
  return undefined;
}
