import { findBuiltin } from '../../builtin-commands/registry.js';
import type { ChatCommand, ChatCommandContext } from './command-context.js';
import {
  aboutCommand,
  copyCommand,
  debugCommand,
  directoryCommand,
  initCommand,
  modelCommand,
  settingsCommand,
} from './info-commands.js';
import {
  chatCommand,
  compressCommand,
  exportSessionCommand,
  restoreCommand,
  resumeCommand,
} from './session-commands.js';
import type { SlashInput } from './slash-parse.js';
import { rewindCommand } from './rewind-command.js';
import { themeCommand } from './theme-command.js';
import { statsCommand } from './stats-command.js';
import { vimCommand } from './vim-command.js';
import { tasksCommand } from './tasks-command.js';
import { agentsCommand } from './agents-command.js';

/**
 * The chat's own handlers of the built-ins that need the chat (dialogs, the screen, the session in
 * progress), by the name the built-in registry (host/builtin-commands/registry.ts) gives them: their help
 * and sub-commands are the registry's, and a test checks every chat built-in has a view or a handler here.
 */
export const CHAT_COMMANDS: Record<string, ChatCommand> = {
  chat: chatCommand,
  resume: resumeCommand,
  restore: restoreCommand,
  vim: vimCommand,
  theme: themeCommand,
  rewind: rewindCommand,
  editor: (_input, ctx) => ctx.editInput?.(),
  'export-session': exportSessionCommand,
  compress: compressCommand,
  copy: copyCommand,
  about: aboutCommand,
  init: initCommand,
  directory: directoryCommand,
  settings: settingsCommand,
  model: modelCommand,
  debug: debugCommand,
  stats: statsCommand,
  tasks: tasksCommand,
  agents: agentsCommand,
};

/** Runs one of CHAT_COMMANDS; false when the name is not one of them. Failures are printed, not thrown. */
export async function runChatCommand(input: SlashInput, ctx: ChatCommandContext): Promise<boolean> {
  const name = findBuiltin(input.name)?.name ?? input.name;
  const cmd = CHAT_COMMANDS[name];
  if (!cmd) return false;
  try {
    await cmd(input, ctx);
  } catch (err) {
    ctx.error(`/${name}: ${(err as Error).message}`);
  }
  return true;
}
