/**
 * A tool entry as settings and policy write it: `run_shell_command(git)` → `{name: 'run_shell_command', arg:
 * 'git'}`; a bare name has no arg. Shared by the MCP manager's include/exclude filter, the registry and the
 * policy rules, so all three read an entry alike.
 */
export function parseToolPattern(pattern: string): { name: string; arg?: string } {
  const m = /^([^()]+?)\s*\((.*)\)\s*$/s.exec(pattern.trim());
  return m ? { name: m[1]!.trim(), arg: m[2]! } : { name: pattern.trim() };
}
