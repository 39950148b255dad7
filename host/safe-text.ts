/**
 * The one sanitiser for text a third party or a file chose (a server's names, descriptions, stderr,
 * prompts, resources, tool output; session titles; names in other clients' config files) on its way to a
 * terminal. Escape sequences there could recolour or hide text (`ESC[8m`), move the cursor over what we
 * printed, set the clipboard (OSC 52) or plant links (OSC 8); a carriage return or bidi override could make
 * a command read as something else. Every control character is shown as visible escaped text (`\x1b`,
 * `\r`, `\u009b`), bidi embedding/override/isolate marks are dropped, and our own styling is applied
 * afterwards, to the already safe text.
 */

const NAMED: Record<string, string> = { '\r': '\\r', '\t': '\\t', '\n': '\\n', '\b': '\\b', '\f': '\\f', '\v': '\\v' };

// C0 controls, DEL, C1 controls, and the Unicode line/paragraph separators that also break lines.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI; the Arabic letter mark.
const BIDI = /[\u202a-\u202e\u2066-\u2069\u061c]/g;

function visible(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export interface SafeTextOptions {
  /** Keep line breaks (and tabs) as they are: for descriptions, stderr tails and output blocks. */
  multiline?: boolean;
}

/** `text` with every control character visible and bidi overrides removed; see the module comment. */
export function safeText(text: string, opts: SafeTextOptions = {}): string {
  const s = String(text);
  return s.replace(BIDI, '').replace(CONTROLS, (ch) => {
    if (opts.multiline && (ch === '\n' || ch === '\t')) return ch;
    return visible(ch);
  });
}

/** Multi-line foreign text (descriptions, stderr tails, tool output): line breaks kept, CRLF read as LF. */
export function safeBlock(text: string): string {
  return safeText(String(text).replace(/\r\n/g, '\n'), { multiline: true });
}
