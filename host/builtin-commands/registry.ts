/**
 * The one list of built-in slash commands: name, the names it also answers to, its help line, the
 * sub-commands Tab completes, and the front-ends that may run it. The chat's `/help` and completion, the
 * headless `-p "/name"` and the editor's (ACP) available commands all read this list; a custom command
 * of one of these names is renamed. What a command shows is built once as structured output
 * (`host/core/builtin-views.ts`); the chat's own commands (dialogs, the screen) have their handler in the
 * chat (`host/ui/slash-commands/chat-commands.ts`), and a test checks both against this list.
 *
 * Adding a built-in command: one entry here, then its view (every front-end) or its chat handler.
 */
export type FrontEnd = 'chat' | 'headless' | 'acp';

export interface BuiltinCommand {
  name: string;
  /** Other names it answers to (`/dir`, `/?`, `/exit`): reserved too, never listed. */
  aliases?: readonly string[];
  help: string;
  subs: readonly string[];
  /** Where it runs; elsewhere it is refused with where it does run, never sent to the model. */
  frontEnds: readonly FrontEnd[];
}

const EVERYWHERE: readonly FrontEnd[] = ['chat', 'headless', 'acp'];
const CHAT: readonly FrontEnd[] = ['chat'];

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  { name: 'help', aliases: ['?'], help: 'show commands and keys', subs: [], frontEnds: EVERYWHERE },
  {
    name: 'mcp',
    help: 'MCP servers: status, tools, failures; /mcp restart|reload [NAME]; enable|disable NAME (this session); desc',
    subs: ['list', 'desc', 'restart', 'reload', 'enable', 'disable'],
    frontEnds: EVERYWHERE,
  },
  { name: 'tools', help: 'list the tools the model can call', subs: ['desc'], frontEnds: EVERYWHERE },
  {
    name: 'memory',
    help: 'memory: show | list (context files) | refresh | add TEXT',
    subs: ['show', 'list', 'refresh', 'add'],
    frontEnds: EVERYWHERE,
  },
  { name: 'hooks', help: 'list the hooks in force and where they come from', subs: [], frontEnds: EVERYWHERE },
  { name: 'policies', help: 'list the policy file rules in force', subs: [], frontEnds: EVERYWHERE },
  {
    name: 'extensions',
    help: 'installed extensions and whether each is enabled here; /extensions desc for the details',
    subs: ['desc'],
    frontEnds: EVERYWHERE,
  },
  {
    name: 'skills',
    help: 'agent skills: list | enable NAME | disable NAME | reload',
    subs: ['list', 'enable', 'disable', 'reload'],
    frontEnds: EVERYWHERE,
  },
  {
    name: 'chat',
    help: 'browse recorded sessions; save TAG | resume TAG | list | delete TAG | share FILE.md|.json',
    subs: ['save', 'resume', 'list', 'delete', 'share'],
    frontEnds: CHAT,
  },
  {
    name: 'resume',
    help: 'browse recorded sessions; /resume N continues one; save TAG | resume TAG | list | delete TAG | share, as /chat',
    subs: ['latest', 'save', 'resume', 'list', 'delete', 'share'],
    frontEnds: CHAT,
  },
  {
    name: 'restore',
    help: 'list checkpoints; /restore N puts back files and conversation',
    subs: [],
    frontEnds: CHAT,
  },
  { name: 'vim', help: 'vi keys in the input on / off (kept in general.vimMode)', subs: [], frontEnds: CHAT },
  {
    name: 'theme',
    help: 'list themes; /theme dark | light (or a Gemini CLI theme name) switches',
    subs: ['dark', 'light'],
    frontEnds: CHAT,
  },
  {
    name: 'rewind',
    help: 'list your messages; /rewind N goes back to just before one (Esc Esc on an empty prompt)',
    subs: [],
    frontEnds: CHAT,
  },
  { name: 'editor', help: 'edit the input in $VISUAL / $EDITOR (Ctrl+G)', subs: [], frontEnds: CHAT },
  { name: 'export-session', help: 'FILE: write this session to a JSON file', subs: [], frontEnds: CHAT },
  {
    name: 'compress',
    // Gemini CLI 0.61's other names for it.
    aliases: ['summarize', 'compact'],
    help: 'summarise the conversation now to free context',
    subs: [],
    frontEnds: ['chat', 'acp'],
  },
  { name: 'copy', help: 'copy the last answer to the clipboard', subs: [], frontEnds: CHAT },
  { name: 'about', help: 'versions, model and session', subs: [], frontEnds: CHAT },
  { name: 'init', help: 'ask the model to write a GEMINI.md for this project', subs: [], frontEnds: CHAT },
  {
    name: 'directory',
    aliases: ['dir'],
    help: 'add PATH[,PATH] | show: workspace directories',
    subs: ['add', 'show'],
    frontEnds: CHAT,
  },
  {
    name: 'settings',
    help: 'merged settings and the file each comes from; /settings set KEY VALUE [--workspace] changes one',
    subs: ['set'],
    frontEnds: CHAT,
  },
  { name: 'model', help: 'show the model; /model NAME switches for this session', subs: [], frontEnds: CHAT },
  {
    name: 'debug',
    help: 'the debug log: server log messages and diagnostics (F12); N lines | clear',
    subs: ['clear'],
    frontEnds: CHAT,
  },
  {
    name: 'stats',
    help: 'session statistics per model and per tool, with success rates; /stats model | tools',
    subs: ['model', 'tools'],
    frontEnds: CHAT,
  },
  {
    name: 'tasks',
    aliases: ['bg', 'background'],
    help: "the model's background commands; /tasks PID shows one's latest output",
    subs: [],
    frontEnds: CHAT,
  },
  {
    name: 'clear',
    aliases: ['new'],
    help: 'clear the screen and start a new conversation view',
    subs: [],
    frontEnds: CHAT,
  },
  { name: 'quit', aliases: ['exit'], help: 'exit', subs: [], frontEnds: CHAT },
  {
    name: 'agents',
    help: 'subagents and where each comes from; /agents reload | acknowledge (new project agents) | enable NAME | disable NAME',
    subs: ['list', 'reload', 'acknowledge', 'enable', 'disable'],
    frontEnds: CHAT,
  },
];

const SIGN_IN =
  'sign-in here is an API key (GEMINI_API_KEY or GOOGLE_API_KEY) or Vertex AI, set in the environment or a .env file';
const SIGN_OUT = 'there is no signed-in account to leave: unset GEMINI_API_KEY (or GOOGLE_API_KEY)';

/**
 * Gemini CLI 0.61's commands that have no counterpart here, with what to do instead: typed out of habit,
 * each gets that rather than "unknown command".
 */
export const GEMINI_CLI_ONLY: Readonly<Record<string, string>> = {
  auth: `${SIGN_IN}; Login with Google is not offered`,
  signin: SIGN_IN,
  login: SIGN_IN,
  signout: SIGN_OUT,
  logout: SIGN_OUT,
  privacy:
    'gemini-mcp collects no usage statistics: it sends your conversation to the model API and tool calls to the servers you configured, nothing else',
  permissions:
    "folder trust is `gemini-mcp trust` (Gemini CLI's trustedFolders.json); what runs without asking is in /policies and `--approval-mode`",
  ide: 'editors connect over ACP (`gemini-mcp --acp`, see docs/editors.md)',
  docs: 'the documentation is README.md and the docs/ folder of gemini-mcp',
  commands: 'custom commands are listed by /help and read again at each start',
  plan: 'start with `--approval-mode plan`, or ask the model to plan: it enters plan mode itself',
};

const byName = new Map<string, BuiltinCommand>();
for (const c of BUILTIN_COMMANDS) for (const n of [c.name, ...(c.aliases ?? [])]) byName.set(n, c);

/** The built-in a typed name means (an alias gives its command), or undefined. */
export function findBuiltin(name: string): BuiltinCommand | undefined {
  return byName.get(name.toLowerCase());
}

/** Every name a custom command may not take (it is renamed, as Gemini CLI keeps built-ins first). */
export const BUILTIN_COMMAND_NAMES: readonly string[] = [...byName.keys()];

/** The commands a front-end runs, in the list's order. */
export function builtinsFor(frontEnd: FrontEnd): BuiltinCommand[] {
  return BUILTIN_COMMANDS.filter((c) => c.frontEnds.includes(frontEnd));
}

const WHERE: Record<FrontEnd, string> = {
  chat: 'the interactive chat',
  headless: 'headless runs',
  acp: 'editors (ACP)',
};

/** The words a front-end says for a built-in it does not run. */
export function notHere(c: BuiltinCommand, typed: string): string {
  return `${typed} is only available in ${c.frontEnds.map((f) => WHERE[f]).join(' and ')}.`;
}
