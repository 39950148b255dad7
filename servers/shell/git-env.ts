import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { NATIVE_DIFF_PROGRAM } from './git-native-diff.js';

/**
 * Git runs programs named in its configuration: `core.fsmonitor` on every `git status`, hooks,
 * `diff.external`, textconv and filter drivers, credential helpers, ssh and gpg programs. A repository
 * can ship such a configuration, and a command the user allowed (`git log --output=.git/config`) can
 * write one, after which an allowed `git status` runs whatever it says. Every command therefore runs
 * with the global and system files hidden and these keys pinned to inert values in the command scope,
 * which git reads last and which the repository cannot override. The rule and its limits are
 * described in docs/shell-git-hardening.md.
 */

const NULL_FILE = '/dev/null';

/** Keys with one name: pinned for every command, whether or not it looks like git. */
export const FIXED_GIT_OVERRIDES: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  // A hooks directory that can never contain a hook.
  ['core.hooksPath', NULL_FILE],
  ['core.pager', 'cat'],
  // `:` is git's "keep the text as it is" editor: nothing runs and nothing waits for a terminal.
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  // An empty helper clears the list collected so far.
  ['credential.helper', ''],
  ['core.askPass', ''],
  ['core.sshCommand', 'ssh'],
  ['core.alternateRefsCommand', ''],
  ['gpg.program', 'gpg'],
  ['gpg.openpgp.program', 'gpg'],
  ['gpg.x509.program', 'gpgsm'],
  ['gpg.ssh.program', 'ssh-keygen'],
  ['gpg.ssh.defaultKeyCommand', ''],
  ['protocol.ext.allow', 'never'],
  ['core.attributesFile', NULL_FILE],
  // `git add -p` pipes its coloured hunks through this program.
  ['interactive.diffFilter', 'cat'],
];

/**
 * For a command not seen to run git (a script, `bash -c`), whose repository was not listed: a
 * `diff.external` there is replaced by git's own diff. Where the listing ran, it is pinned only when a
 * repository sets it, so that `git diff` keeps every option elsewhere.
 */
export const UNLISTED_GIT_OVERRIDES: ReadonlyArray<readonly [string, string]> = [
  ['diff.external', NATIVE_DIFF_PROGRAM],
];

/**
 * Keys with a user-chosen middle part (`diff.<driver>.textconv`): they cannot be pinned in advance,
 * so the configuration a git command will read is listed first and each one found is pinned.
 */
const NAMED_EXEC_KEYS: Record<string, string> = {
  textconv: 'cat',
  // diff.<driver>.command: git's own diff instead (an empty value would be run, and fail).
  command: NATIVE_DIFF_PROGRAM,
  clean: 'cat',
  smudge: 'cat',
  process: '',
  driver: '',
  helper: '',
  uploadpack: 'git-upload-pack',
  receivepack: 'git-receive-pack',
  cmd: '',
  update: 'checkout',
};
const NAMED_SECTIONS = new Set([
  'diff',
  'filter',
  'merge',
  'credential',
  'remote',
  'difftool',
  'mergetool',
  'browser',
  'submodule',
]);
const SCAN_PATTERN = `^(${[...NAMED_SECTIONS].join('|')})\\..+\\.(${Object.keys(NAMED_EXEC_KEYS).join('|')})$|^diff\\.external$|^(user|safe|init|alias|color)\\.|^core\\.(excludesfile|autocrlf|quotepath)$`;

/** The scopes a command reads: the global and system files are hidden from it. */
const READ_SCOPES = new Set(['local', 'worktree', 'command']);

/**
 * Settings of the user's own (global, system) files that execute nothing and that everyday git use
 * needs: identity for commits, trusted directories, the global ignore file, line endings, aliases
 * (`git st`), colours.
 */
const CARRIED_FROM_USER =
  /^(user\.(name|email|signingkey)|safe\.directory|init\.defaultbranch|core\.(excludesfile|autocrlf|quotepath)|alias\..+|color\..+)$/;

/** An alias starting with `!` is a shell command, a program the approval of `git <alias>` does not show. */
const carriable = (key: string, value: string) =>
  CARRIED_FROM_USER.test(key) && !(key.startsWith('alias.') && value.trimStart().startsWith('!'));

/** The environment every command gets, before any per-command overrides. */
export function hardenedGitEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...base,
    GIT_CONFIG_GLOBAL: NULL_FILE,
    GIT_CONFIG_SYSTEM: NULL_FILE,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
  };
  // Environment variables outrank the configuration; these name programs to run.
  delete env.GIT_EXTERNAL_DIFF;
  delete env.GIT_SSH;
  delete env.GIT_SSH_COMMAND;
  delete env.GIT_PROXY_COMMAND;
  return appendGitConfig(env, FIXED_GIT_OVERRIDES);
}

/**
 * Adds command-scope entries after any the caller's environment already has (a later entry wins, so
 * ours do). `GIT_CONFIG_PARAMETERS` is read after the counted entries and would outrank them: dropped.
 */
export function appendGitConfig(
  env: NodeJS.ProcessEnv,
  pairs: ReadonlyArray<readonly [string, string]>,
): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out.GIT_CONFIG_PARAMETERS;
  const inherited = Number.parseInt(out.GIT_CONFIG_COUNT ?? '0', 10);
  let n = Number.isInteger(inherited) && inherited > 0 ? inherited : 0;
  for (const [key, value] of pairs) {
    out[`GIT_CONFIG_KEY_${n}`] = key;
    out[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  out.GIT_CONFIG_COUNT = String(n);
  return out;
}

/**
 * Lists, in each directory a git command will run in, the keys that need pinning (named drivers and
 * `diff.external` of the scopes the command reads) and the user settings worth carrying over (global
 * and system scopes only, which the command itself no longer reads). The listing itself runs
 * nothing: `git config` starts no fsmonitor, hook or driver.
 */
export async function scanGitConfig(
  dirs: readonly string[],
  userEnv: NodeJS.ProcessEnv,
): Promise<Array<readonly [string, string]>> {
  const pinned = new Map<string, string>();
  const carried = new Map<string, readonly [string, string]>();
  const listings = await Promise.all(dirs.map((d) => listConfig(d, userEnv)));
  for (const entries of listings) {
    for (const { scope, key, value } of entries) {
      const last = key.slice(key.lastIndexOf('.') + 1);
      const section = key.slice(0, key.indexOf('.'));
      const reads = READ_SCOPES.has(scope);
      if (reads && NAMED_SECTIONS.has(section) && key.split('.').length > 2 && last in NAMED_EXEC_KEYS) {
        pinned.set(key, NAMED_EXEC_KEYS[last]);
      } else if (reads && key === 'diff.external') {
        pinned.set(key, NATIVE_DIFF_PROGRAM);
      } else if ((scope === 'global' || scope === 'system') && carriable(key, value)) {
        // safe.directory is a list: every entry is kept; other keys keep their last value.
        carried.set(key === 'safe.directory' ? `${key}\0${value}` : key, [key, value]);
      }
    }
  }
  return [...carried.values(), ...pinned];
}

interface ConfigEntry {
  scope: string;
  key: string;
  value: string;
}

function listConfig(cwd: string, env: NodeJS.ProcessEnv): Promise<ConfigEntry[]> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['config', '--show-scope', '--null', '--get-regexp', SCAN_PATTERN],
      { cwd, env, timeout: 5000, maxBuffer: 4 << 20 },
      (err, stdout) => {
        // Exit 1 means "no matching key"; a missing git or directory leaves nothing to pin.
        if (err && typeof err.code !== 'number') return resolve([]);
        resolve(parseListing(String(stdout)));
      },
    );
  });
}

/** `--show-scope --null` prints `scope NUL key LF value NUL` (no LF when the key has no value). */
function parseListing(text: string): ConfigEntry[] {
  const fields = text.split('\0');
  const out: ConfigEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const kv = fields[i + 1];
    const nl = kv.indexOf('\n');
    out.push({ scope: fields[i], key: nl < 0 ? kv : kv.slice(0, nl), value: nl < 0 ? '' : kv.slice(nl + 1) });
  }
  return out;
}

interface CommandWords {
  name: string;
  args: string[];
}

/**
 * Directories whose git configuration the command may read: its working directory, each
 * `git -C DIR`, and each `cd DIR` / `pushd DIR` (a nested repository reached that way ships its own
 * configuration). Relative paths are taken from the working directory; that is exact for the first
 * `cd` and close enough after it, since the listing only adds pins.
 */
export function gitDirsOf(commands: readonly CommandWords[], cwd: string): string[] | undefined {
  if (!commands.some((c) => c.name === 'git')) return undefined;
  const dirs = new Set([cwd]);
  for (const c of commands) {
    if (c.name === 'git') {
      for (let i = 0; i < c.args.length - 1; i++) if (c.args[i] === '-C') dirs.add(resolve(cwd, c.args[i + 1]));
    } else if ((c.name === 'cd' || c.name === 'pushd') && c.args.length > 0) {
      const target = c.args.find((a) => !a.startsWith('-'));
      if (target) dirs.add(resolve(cwd, target));
    }
  }
  return [...dirs];
}
