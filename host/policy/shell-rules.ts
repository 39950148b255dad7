import type { ApprovalMode } from '../scheduler/types.js';

// Loaded on first use: the parser brings tree-sitter, which start-up should not pay for.
type CommandModel = typeof import('../../protocol/bash/command-model.js');
let model: Promise<CommandModel> | undefined;
const load = () => (model ??= import('../../protocol/bash/command-model.js'));
const parseCommand = async (cmd: string) => (await load()).parseCommand(cmd);
const isCommandAllowed = async (cmd: string, allowances: string[]) => (await load()).isCommandAllowed(cmd, allowances);

/**
 * Shell prefix rules: a command is allowed only when every part of the parsed
 * command is covered and none uses an option that writes files or runs programs (`--output`,
 * `sort -o`, `find -fprint`); redirection downgrades to ask in default mode; a parse failure asks.
 */
export async function shellDecision(
  command: string,
  allowances: readonly string[],
  mode: ApprovalMode,
): Promise<'allow' | 'ask'> {
  if (allowances.length === 0) return 'ask';
  const parsed = await parseCommand(command);
  if (!parsed.ok) return 'ask';
  if (!(await isCommandAllowed(command, [...allowances]))) return 'ask';
  // Options that write files or run programs are never covered by a prefix rule.
  const { riskyOption } = await load();
  if (parsed.commands.some((c) => riskyOption(c) !== undefined)) return 'ask';
  if (parsed.hasRedirection && mode === 'default') return 'ask';
  return 'allow';
}

/** True when any part of the command matches one of the prefixes (used for exclusions). */
export async function anyPartMatches(command: string, prefixes: readonly string[]): Promise<boolean> {
  if (prefixes.length === 0) return false;
  const parsed = await parseCommand(command);
  // An unparseable command cannot be proven clear of an excluded prefix.
  if (!parsed.ok) return true;
  for (const part of parsed.commands) {
    if (await isCommandAllowed(part.text, [...prefixes])) return true;
  }
  return false;
}

/** True when every part is covered by the prefixes (tools.core restriction). */
export async function allPartsMatch(command: string, prefixes: readonly string[]): Promise<boolean> {
  if (prefixes.length === 0) return false;
  return isCommandAllowed(command, [...prefixes]);
}

/** Root commands of a command, for "always allow" when the server did not send them. */
export async function rootCommandsOf(command: string): Promise<string[]> {
  const parsed = await parseCommand(command);
  return parsed.ok ? parsed.rootCommands : [];
}

/** The parts of a compound command (`a && b | c` → three), or undefined when it does not parse. */
export async function commandParts(command: string): Promise<string[] | undefined> {
  const parsed = await parseCommand(command);
  return parsed.ok ? parsed.commands.map((c) => c.text) : undefined;
}

/**
 * The first part of a command whose program is known only when it runs (`$X v`, `bash -c "$C"`), or
 * undefined. Rules name programs, so such a part can be any program a rule denies.
 */
export async function unknownProgramPart(command: string): Promise<string | undefined> {
  const parsed = await parseCommand(command);
  if (!parsed.ok) return undefined;
  return parsed.commands.find((c) => c.programUnknown)?.text;
}

/**
 * Why a command does more than run what a pattern allow rule names, or undefined: an option that writes a
 * file or runs a program (`git diff --output=F`), or, in default mode, a redirection (`git log > F`) —
 * what a write needs, as the prefix rules see it. A command that does not parse cannot be cleared.
 */
export async function writesBeyondCommand(
  command: string,
  mode: ApprovalMode,
  allowRedirection: boolean,
): Promise<string | undefined> {
  const parsed = await parseCommand(command);
  if (!parsed.ok) return parsed.error;
  const { riskyOption } = await load();
  for (const c of parsed.commands) {
    const risky = riskyOption(c);
    if (risky) return risky;
  }
  if (parsed.hasRedirection && mode === 'default' && !allowRedirection) return 'it redirects output to a file';
  return undefined;
}
