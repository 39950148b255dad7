/**
 * What a hook says to the person, not the model: its `systemMessage` (`system`), or why it failed, timed out
 * or could not start (`warning`). The chat shows it in the conversation (`ℹ text [hook]`, as Gemini CLI
 * does); headless writes the text to stderr.
 */
export interface HookMessage {
  kind: 'system' | 'warning';
  /** The hook's `name`, else its command. */
  hookName: string;
  /** The event as its settings file wrote it. */
  eventName: string;
  text: string;
}

/** One line for a consumer that shows plain text (the debug log, an editor's notice). */
export function hookMessageLine(m: HookMessage): string {
  return m.kind === 'system' ? `${m.text} [${m.hookName}]` : m.text;
}
