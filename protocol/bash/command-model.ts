import { basename, dirname } from 'node:path';
import type { Node, Parser } from 'web-tree-sitter';
import { getBashParser } from './bash-parser.js';
import { evalWord, literal, type Word } from './words.js';
import { unwrap } from './wrappers.js';

export { riskyOption } from './risky-options.js';

/**
 * The command model for approvals: a command
 * line parsed with tree-sitter-bash into every simple command it would run — each part of a chain,
 * pipe or list, commands in substitutions, subshells, function bodies and the inner scripts of
 * `bash -c`/`eval` — looking through wrappers such as `env`, `sudo`, `timeout`, `xargs` and
 * `find -exec`. The host's policy imports this module; keep the exported API stable.
 */

export interface SimpleCommand {
  /** Root command: the first word after assignments, reduced to its base name. */
  name: string;
  args: string[];
  /** Per argument: its value is known only at run time (parameter, glob, substitution). */
  argsDynamic: boolean[];
  /** Source text of the command (words joined for commands found inside a wrapper). */
  text: string;
  /** Redirections attached to it (`> out`, `2>&1`, `<<EOF`). */
  redirections: string[];
  /** The wrapper it was found in (`sudo`, `bash`, `xargs`, …). */
  viaWrapper?: string;
  /**
   * The program it runs is known only at run time: its name is computed (`$X v`, `rm${IFS}v`) or it is a
   * wrapper running code given at run time (`bash -c "$C"`, `eval "$x"`, `env -S 'rm v'`).
   */
  programUnknown?: true;
}

export type ParsedCommand =
  | { ok: true; commands: SimpleCommand[]; rootCommands: string[]; hasSubstitution: boolean; hasRedirection: boolean }
  | { ok: false; error: string };

interface Cmd {
  assignments: Word[];
  words: Word[];
  text: string;
  redirections: string[];
  viaWrapper?: string;
  opaque?: boolean;
}

interface Analysis {
  commands: Cmd[];
  hasSubstitution: boolean;
  hasRedirection: boolean;
  /** `NAME=value` on its own changes the environment of later commands. */
  bareAssignment: boolean;
}

class ParseFailure extends Error {}

/** Nesting of wrappers and scripts deeper than this is refused rather than followed. */
const MAX_DEPTH = 8;
const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution', 'arithmetic_expansion']);
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

function analyse(parser: Parser, source: string, depth: number, out: Analysis, via?: string): void {
  if (depth > MAX_DEPTH) throw new ParseFailure('Command nesting is too deep to analyse.');
  const tree = parser.parse(source);
  if (!tree) throw new ParseFailure('Command could not be parsed.');
  try {
    const root = tree.rootNode;
    if (root.hasError) throw new ParseFailure(`Command could not be parsed: syntax error near ${describeError(root)}.`);
    walk(parser, root, depth, out, via);
  } finally {
    tree.delete();
  }
}

function describeError(root: Node): string {
  const bad = root.descendantsOfType(['ERROR'])[0] ?? findMissing(root);
  if (!bad) return 'the end';
  const { row, column } = bad.startPosition;
  return `line ${row + 1}, column ${column + 1}`;
}

function findMissing(node: Node): Node | undefined {
  if (node.isMissing) return node;
  for (const c of node.children) {
    const m = c && findMissing(c);
    if (m) return m;
  }
  return undefined;
}

function walk(parser: Parser, node: Node, depth: number, out: Analysis, via?: string): void {
  const type = node.type;
  if (SUBSTITUTIONS.has(type)) out.hasSubstitution = true;
  if (REDIRECTS.has(type)) out.hasRedirection = true;
  if (type === 'command') addCommand(parser, node, depth, out, via);
  else if (type === 'declaration_command' || type === 'unset_command') addBuiltin(node, out, via);
  else if ((type === 'variable_assignment' || type === 'variable_assignments') && !isCommandPart(node))
    out.bareAssignment = true;
  for (const child of node.children) if (child) walk(parser, child, depth, out, via);
}

function isCommandPart(node: Node): boolean {
  const p = node.parent?.type;
  return p === 'command' || p === 'declaration_command' || p === 'variable_assignments';
}

function redirectionsOf(node: Node): string[] {
  const own = node.children.filter((c) => c && REDIRECTS.has(c.type));
  const parent = node.parent;
  const outer =
    parent?.type === 'redirected_statement' && parent.childForFieldName('body')?.equals(node)
      ? parent.children.filter((c) => c && REDIRECTS.has(c.type))
      : [];
  // A heredoc's body is not part of the redirection's description.
  return [...own, ...outer].map((r) => r!.text.split('\n')[0].trim());
}

function addCommand(parser: Parser, node: Node, depth: number, out: Analysis, via?: string): void {
  const nameNode = node.childForFieldName('name');
  if (!nameNode) return;
  const assignments = node.namedChildren.filter((c) => c?.type === 'variable_assignment').map((c) => evalWord(c!));
  const words = [evalWord(nameNode), ...node.childrenForFieldName('argument').map(evalWord)];
  emit(
    parser,
    { assignments, words, text: node.text, redirections: redirectionsOf(node), viaWrapper: via },
    depth,
    out,
  );
}

function addBuiltin(node: Node, out: Analysis, via?: string): void {
  const keyword = node.children[0];
  if (!keyword) return;
  const args = node.namedChildren.filter((c) => c && c !== keyword).map((c) => evalWord(c!));
  out.commands.push({
    assignments: [],
    words: [literal(keyword.text), ...args],
    text: node.text,
    redirections: redirectionsOf(node),
    viaWrapper: via,
  });
}

function emit(parser: Parser, cmd: Cmd, depth: number, out: Analysis): void {
  if (depth > MAX_DEPTH) throw new ParseFailure('Command nesting is too deep to analyse.');
  const u = unwrap(cmd.words);
  if (!u) {
    out.commands.push(cmd);
    return;
  }
  const wrapper = rootOf(cmd.words[0]);
  if (u.keepWrapper) out.commands.push(u.opaque ? { ...cmd, opaque: true } : cmd);
  for (const words of u.commands) {
    emit(
      parser,
      {
        assignments: [...cmd.assignments, ...u.assignments],
        words,
        text: words.map((w) => w.text).join(' '),
        redirections: [],
        viaWrapper: wrapper,
      },
      depth + 1,
      out,
    );
  }
  for (const script of u.scripts) analyse(parser, script, depth + 1, out, wrapper);
}

function rootOf(word: Word): string {
  return word.dynamic ? word.text : basename(word.value);
}

async function analyseCommand(command: string): Promise<{ ok: true; a: Analysis } | { ok: false; error: string }> {
  const parser = await getBashParser();
  const a: Analysis = { commands: [], hasSubstitution: false, hasRedirection: false, bareAssignment: false };
  try {
    analyse(parser, command, 0, a);
  } catch (err) {
    if (err instanceof ParseFailure) return { ok: false, error: err.message };
    throw err;
  }
  return { ok: true, a };
}

/** Parses a command line into its simple commands and unique root commands (in order). */
export async function parseCommand(command: string): Promise<ParsedCommand> {
  const r = await analyseCommand(command);
  if (!r.ok) return r;
  const commands: SimpleCommand[] = r.a.commands.map((c) => ({
    name: rootOf(c.words[0]),
    args: c.words.slice(1).map((w) => w.value),
    argsDynamic: c.words.slice(1).map((w) => w.dynamic),
    text: c.text,
    redirections: c.redirections,
    ...(c.viaWrapper ? { viaWrapper: c.viaWrapper } : {}),
    ...(c.opaque || c.words[0].dynamic ? { programUnknown: true as const } : {}),
  }));
  const rootCommands = [...new Set(commands.map((c) => c.name).filter((n) => n !== ''))];
  return { ok: true, commands, rootCommands, hasSubstitution: r.a.hasSubstitution, hasRedirection: r.a.hasRedirection };
}

/** Where a command named by absolute path is as good as the bare name found on PATH. */
const SYSTEM_BIN_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin', '/usr/local/sbin']);

/**
 * Whether every simple command of `command` is covered by one of `allowances` (prefix semantics on
 * words: `git log` allows `git log -5` and `git 'log' -5`, never `git logout`, and a chain is allowed
 * only when each part is). Fails closed: unparseable input, no commands, a standalone assignment
 * (it changes what later commands do), or a word whose value is known only at run time in the
 * compared prefix all give false. `NAME=value` prefixes are part of the words, so `git log` does
 * not cover `GIT_PAGER=x git log` (such variables can run arbitrary code). Redirections do not
 * matter here: the host downgrades on `hasRedirection` itself where its mode says so.
 */
export async function isCommandAllowed(command: string, allowances: string[]): Promise<boolean> {
  const r = await analyseCommand(command);
  if (!r.ok || r.a.commands.length === 0 || r.a.bareAssignment) return false;
  const rules = allowances.map((a) => a.trim().split(/\s+/).filter(Boolean)).filter((w) => w.length > 0);
  if (rules.length === 0) return false;
  return r.a.commands.every((c) => rules.some((rule) => matches(c, rule)));
}

function matches(cmd: Cmd, rule: string[]): boolean {
  const words = [...cmd.assignments, ...cmd.words];
  const nameIndex = cmd.assignments.length;
  if (rule.length > words.length) return false;
  return rule.every((expected, i) => {
    const w = words[i];
    if (w.dynamic) return false;
    if (w.value === expected) return true;
    return (
      i === nameIndex &&
      w.value.startsWith('/') &&
      SYSTEM_BIN_DIRS.has(dirname(w.value)) &&
      basename(w.value) === expected
    );
  });
}
