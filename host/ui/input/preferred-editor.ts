import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Gemini CLI 0.61's `general.preferredEditor` identifiers: the commands each runs (the first found on
 * PATH, else the last), and whether it is a window editor, which must be told to wait until the file is
 * closed. The setting beats `$VISUAL` / `$EDITOR`, as in Gemini CLI.
 */
const EDITORS: Record<string, { commands: string[]; gui: boolean; args?: string[] }> = {
  vscode: { commands: ['code'], gui: true },
  vscodium: { commands: ['codium'], gui: true },
  windsurf: { commands: ['windsurf'], gui: true },
  cursor: { commands: ['cursor'], gui: true },
  zed: { commands: ['zed', 'zeditor'], gui: true },
  antigravity: { commands: ['agy', 'antigravity'], gui: true },
  sublimetext: { commands: ['subl'], gui: true },
  lapce: { commands: ['lapce'], gui: true },
  nova: { commands: ['nova'], gui: true },
  bbedit: { commands: ['bbedit'], gui: true },
  // No viminfo: the temp file's marks and history stay out of the user's.
  vim: { commands: ['vim'], gui: false, args: ['-i', 'NONE'] },
  neovim: { commands: ['nvim'], gui: false, args: ['-i', 'NONE'] },
  emacs: { commands: ['emacs'], gui: false },
  emacsclient: { commands: ['emacsclient'], gui: false, args: ['-nw'] },
  hx: { commands: ['hx'], gui: false },
  micro: { commands: ['micro'], gui: false },
};

export const PREFERRED_EDITORS = Object.keys(EDITORS);

/** Whether `cmd` is an executable in a PATH folder (an empty entry, the current folder, is not looked in). */
function onPath(cmd: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => {
    if (!isAbsolute(dir)) return false;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The command for a `general.preferredEditor` id; undefined when the id is not one Gemini CLI knows. */
export function preferredEditorCommand(
  id: string,
  env: NodeJS.ProcessEnv,
): { file: string; args: string[] } | undefined {
  const editor = Object.hasOwn(EDITORS, id) ? EDITORS[id] : undefined;
  if (!editor) return undefined;
  const file = editor.commands.slice(0, -1).find((c) => onPath(c, env)) ?? editor.commands.at(-1)!;
  const wait = editor.gui ? [id === 'sublimetext' ? '-w' : '--wait'] : [];
  return { file, args: [...(editor.args ?? []), ...wait] };
}

/** The start-up warning for a `general.preferredEditor` this host cannot run; undefined when it can. */
export function preferredEditorProblem(id: unknown): string | undefined {
  if (id === undefined || (typeof id === 'string' && Object.hasOwn(EDITORS, id))) return undefined;
  return `general.preferredEditor ${JSON.stringify(id)} is not an editor Gemini CLI knows (${PREFERRED_EDITORS.join(', ')}): $VISUAL / $EDITOR is used instead.`;
}
