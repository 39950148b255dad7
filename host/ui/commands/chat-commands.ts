import type { ChatCommand, ChatCommandContext } from './command-context.js';
import {
  aboutCommand,
  copyCommand,
  debugCommand,
  directoryCommand,
  initCommand,
  modelCommand,
  settingsCommand,
  statsCommand,
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
import { vimCommand } from './vim-command.js';
import { tasksCommand } from './tasks-command.js';

/** The chat's session and information commands: handler, help line, sub-commands for Tab. */
export const CHAT_COMMANDS: Record<string, { run: ChatCommand; help: string; subs: string[] }> = {
  chat: {
    run: chatCommand,
    help: 'save TAG | resume TAG | list | delete TAG | share FILE.md|.json',
    subs: ['save', 'resume', 'list', 'delete', 'share'],
  },
  resume: { run: resumeCommand, help: 'list recorded sessions; /resume N continues one', subs: ['latest'] },
  restore: { run: restoreCommand, help: 'list checkpoints; /restore N puts back files and conversation', subs: [] },
  vim: { run: vimCommand, help: 'vi keys in the input on / off (kept in general.vimMode)', subs: [] },
  theme: {
    run: themeCommand,
    help: 'list themes; /theme dark | light (or a Gemini CLI theme name) switches',
    subs: ['dark', 'light'],
  },
  rewind: {
    run: rewindCommand,
    help: 'list your messages; /rewind N goes back to just before one (Esc Esc on an empty prompt)',
    subs: [],
  },
  editor: {
    run: (_input, ctx) => ctx.editInput?.(),
    help: 'edit the input in $VISUAL / $EDITOR (Ctrl+G)',
    subs: [],
  },
  'export-session': { run: exportSessionCommand, help: 'FILE: write this session to a JSON file', subs: [] },
  compress: { run: compressCommand, help: 'summarise the conversation now to free context', subs: [] },
  copy: { run: copyCommand, help: 'copy the last answer to the clipboard', subs: [] },
  about: { run: aboutCommand, help: 'versions, model and session', subs: [] },
  init: { run: initCommand, help: 'ask the model to write a GEMINI.md for this project', subs: [] },
  directory: { run: directoryCommand, help: 'add PATH[,PATH] | show: workspace directories', subs: ['add', 'show'] },
  settings: {
    run: settingsCommand,
    help: 'merged settings and the file each comes from; /settings set KEY VALUE [--workspace] changes one',
    subs: ['set'],
  },
  model: { run: modelCommand, help: 'show the model; /model NAME switches for this session', subs: [] },
  debug: {
    run: debugCommand,
    help: 'the debug log: server log messages and diagnostics (F12); N lines | clear',
    subs: ['clear'],
  },
  stats: {
    run: statsCommand,
    help: 'session statistics per model and per tool, with success rates; /stats model | tools',
    subs: ['model', 'tools'],
  },
  tasks: {
    run: tasksCommand,
    help: "the model's background commands (/bg); /tasks PID shows one's latest output",
    subs: [],
  },
};

/** Other names of CHAT_COMMANDS, Gemini CLI's among them. */
const ALIASES: Record<string, string> = { dir: 'directory', bg: 'tasks', background: 'tasks' };

/** Runs one of CHAT_COMMANDS; false when the name is not one of them. Failures are printed, not thrown. */
export async function runChatCommand(input: SlashInput, ctx: ChatCommandContext): Promise<boolean> {
  const name = ALIASES[input.name] ?? input.name;
  const cmd = CHAT_COMMANDS[name];
  if (!cmd) return false;
  try {
    await cmd.run(input, ctx);
  } catch (err) {
    ctx.error(`/${name}: ${(err as Error).message}`);
  }
  return true;
}
