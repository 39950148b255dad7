import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Widgets } from 'blessed';
import { parse } from 'shell-quote';
import { ENABLE_BRACKETED_PASTE } from './paste-filter.js';
import { preferredEditorCommand } from './preferred-editor.js';

/**
 * The editor to run: `general.preferredEditor` when it names one, else `$VISUAL` / `$EDITOR` split into
 * command and arguments (`code -w` works), else `vi`.
 */
export function editorCommand(env: NodeJS.ProcessEnv, preferred?: string): { file: string; args: string[] } {
  const chosen = preferred ? preferredEditorCommand(preferred, env) : undefined;
  if (chosen) return chosen;
  const raw = (env.VISUAL || env.EDITOR || 'vi').trim();
  const words = parse(raw, env as Record<string, string>).filter((w): w is string => typeof w === 'string');
  return words.length ? { file: words[0], args: words.slice(1) } : { file: 'vi', args: [] };
}

/**
 * Writes `content` to a temp file, runs the editor on it with the screen suspended (alternate buffer
 * left, raw mode off, input paused: blessed's `screen.exec`), and returns the saved text.
 */
export function openInEditor(
  screen: Widgets.Screen,
  content: string,
  fileName: string,
  env: NodeJS.ProcessEnv,
  preferred?: string,
): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'gemini-mcp-edit-'));
  const file = join(dir, basename(fileName) || 'proposal.txt');
  writeFileSync(file, content);
  const cmd = editorCommand(env, preferred);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      let text: string | undefined;
      try {
        if (ok) text = readFileSync(file, 'utf8');
      } catch {
        text = undefined;
      }
      rmSync(dir, { recursive: true, force: true });
      // Editors such as vim switch bracketed paste off when they exit: switch it back on.
      screen.program.output.write(ENABLE_BRACKETED_PASTE);
      resolve(text);
    };
    try {
      screen.exec(cmd.file, [...cmd.args, file], { env }, (err: unknown, ok: boolean) => done(!err && ok !== false));
    } catch {
      done(false);
    }
  });
}
