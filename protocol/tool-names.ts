/**
 * What the host and the servers both say about tools: the separator of the `<server>__<tool>` names the
 * model sees, and the text a tool call refused by the user answers the model with (Gemini CLI's words).
 */

export const SEPARATOR = '__';

/** `filesystem__read_file` → `read_file`; a name without a server prefix is returned as it is. */
export function bareToolName(name: string): string {
  const at = name.indexOf(SEPARATOR);
  return at < 0 ? name : name.slice(at + SEPARATOR.length);
}

/** The model's answer for a call the user declined, before or during it. */
export const USER_DENIED_TEXT = '[Operation Cancelled] Reason: User denied execution.';
