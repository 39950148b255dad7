import { toolFor } from '../../tools/builtin-catalogue.js';

/**
 * `!cmd` runs a shell command directly (through the shell server and its approval rules, nothing sent to
 * the model); `!` alone switches shell mode, where every line is a command until `!` again.
 */
export type ShellInput = { kind: 'toggle' } | { kind: 'command'; command: string } | { kind: 'none' };

export function parseShellInput(text: string, shellMode: boolean): ShellInput {
  const t = text.trim();
  if (t === '!') return { kind: 'toggle' };
  if (shellMode) return t ? { kind: 'command', command: t.startsWith('!') ? t.slice(1).trim() : t } : { kind: 'none' };
  if (t.startsWith('!') && t.slice(1).trim()) return { kind: 'command', command: t.slice(1).trim() };
  return { kind: 'none' };
}

/** The shell tool to use: the built-in server's, else any server's `run_shell_command`. */
export function shellToolName(
  tools: { exposedName: string; serverAlias: string; toolName: string; builtIn: boolean }[],
): string | undefined {
  return toolFor(tools, 'run_shell_command')?.exposedName;
}
