import { parseCommand, type ParsedCommand } from '../../protocol/bash/command-model.js';

/**
 * parseCommand is a pure function of the command text, and models repeat commands (`npm test`,
 * `git status`) often; tree-sitter plus the walk costs a noticeable part of a short command's
 * round trip, so one server keeps the last few results. Results are shared: callers only read them.
 */
export function createParseMemo(limit = 128, maxCommandChars = 4096): (command: string) => Promise<ParsedCommand> {
  const memo = new Map<string, ParsedCommand>();
  return async (command) => {
    const hit = memo.get(command);
    if (hit) {
      // Re-insert so the map's order is least recently used first.
      memo.delete(command);
      memo.set(command, hit);
      return hit;
    }
    const parsed = await parseCommand(command);
    if (command.length <= maxCommandChars) {
      memo.set(command, parsed);
      if (memo.size > limit) memo.delete(memo.keys().next().value!);
    }
    return parsed;
  };
}
