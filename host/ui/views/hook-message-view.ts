import { type HookMessage, hookMessageLine } from '../../hooks/hook-message.js';
import { safeBlock, safeText } from '../../safe-text.js';
import type { App } from './app.js';

/**
 * What a hook says to the person, in the conversation as Gemini CLI shows it: `ℹ message [hook]` for a
 * systemMessage, a warning for a hook that failed. Hook output is foreign text: made safe for the terminal.
 * The debug log keeps a copy.
 */
export function showHookMessage(app: App, m: HookMessage): void {
  const p = app.palette;
  const text =
    m.kind === 'system'
      ? `${p.yellow('ℹ')} ${safeBlock(m.text)} ${p.gray(`[${safeText(m.hookName)}]`)}`
      : p.yellow(`⚠ ${safeBlock(m.text)}`);
  app.conv.add({ kind: 'info', text });
  app.debugLog.info(hookMessageLine(m));
  app.requestRender();
}
