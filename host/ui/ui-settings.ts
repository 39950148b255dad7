import type { Settings } from '../config/settings-schema.js';
import { safeText } from '../safe-text.js';
import { preferredEditorProblem } from './input/preferred-editor.js';
import { themeOf } from './text/theme-names.js';
import type { Item } from './views/conversation.js';
import type { App } from './views/app.js';

/** The chat's look-and-feel settings, under Gemini CLI's keys (`ui.*`, `general.vimMode`). */
interface UiSettings {
  ui?: { theme?: unknown; customThemes?: unknown; hideTips?: unknown; showLineNumbers?: unknown };
  general?: { vimMode?: unknown; preferredEditor?: unknown };
}

/** Earlier versions of this host wrote `ui.theme` as plain dark / light, which Gemini CLI refuses. */
function oldTheme(name: 'dark' | 'light'): string {
  return `ui.theme "${name}" is not a theme Gemini CLI knows (it then asks you to pick one): /theme ${name} keeps it as "${name === 'light' ? 'Default Light' : 'Default'}".`;
}

/**
 * Applies the chat's settings once they are loaded (the screen opens before them): the theme, vi keys
 * from the start (`general.vimMode`, which `/vim` saves), no first-run tip under `ui.hideTips`, no diff
 * line numbers under `ui.showLineNumbers: false`, and the editor Ctrl+G and "modify" open
 * (`general.preferredEditor`, named once at start when it is not an editor Gemini CLI knows).
 */
export function applyUiSettings(app: App, merged: Settings, tip?: Item): void {
  const s = merged as UiSettings;
  const theme = themeOf(s.ui?.theme, s.ui?.customThemes);
  if (theme && theme !== app.theme) app.setTheme(theme);
  if (s.ui?.theme === 'dark' || s.ui?.theme === 'light')
    app.conv.add({ kind: 'info', text: app.palette.yellow(oldTheme(s.ui.theme)) });
  if (s.general?.vimMode === true && !app.vim) app.toggleVim();
  if (s.ui?.hideTips === true && tip) app.conv.remove(tip);
  const lineNumbers = s.ui?.showLineNumbers !== false;
  app.conv.lineNumbers = lineNumbers;
  app.dialog.lineNumbers = lineNumbers;
  const editor = s.general?.preferredEditor;
  const problem = preferredEditorProblem(editor);
  if (problem) app.conv.add({ kind: 'info', text: app.palette.yellow(safeText(problem)) });
  else app.preferredEditor = editor as string | undefined;
  app.requestRender();
}
