/**
 * Names of the built-in slash commands (the chat's table and the headless ones). A custom command of
 * the same name is renamed (`/user.help`), as Gemini CLI keeps built-ins first. The chat's table
 * (host/ui/commands) must stay a subset of this list: a test checks it.
 */
export const BUILTIN_COMMAND_NAMES: readonly string[] = [
  'help',
  '?',
  'mcp',
  'tools',
  'memory',
  'chat',
  'resume',
  'restore',
  'compress',
  'copy',
  'about',
  'init',
  'directory',
  'dir',
  'settings',
  'model',
  'debug',
  'stats',
  'clear',
  'quit',
  'exit',
  'extensions',
  'skills',
  'hooks',
  'policies',
  'vim',
  'theme',
  'rewind',
  'editor',
  'export-session',
  'agents',
];
