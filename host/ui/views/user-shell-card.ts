import { unwrapUntrusted } from '../../../protocol/tool-result.js';
import type { ToolCall } from '../../scheduler/types.js';
import type { Palette } from '../text/palette.js';
import { wrapLine } from '../text/wrap.js';
import { safeBlock } from '../../safe-text.js';

const TRUNCATED_HEAD = /^Output too large\. .*For full output see: (.+)\n/;
const OMITTED = /\n\n\.\.\. \[[\d,]+ characters omitted\] \.\.\.\n\n/;
/** The lines the shell server adds for the model after the output. */
const TRAILERS = /\n(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID): [^\n]*$/;

/**
 * What a `!cmd` printed, exactly as printed: the display the shell server gives, without the fence, the
 * `Output:` prefix or the process-group lines written for the model. A huge output the server cut keeps
 * only its tail here, and `file` names where the whole of it is.
 */
export function userShellOutput(call: ToolCall): { text: string; file?: string } {
  const r = call.response;
  const d = r?.resultDisplay;
  // A cut output's display is itself capped from the front: the model's text still has the head.
  const whole = unwrapUntrusted(r?.responseText ?? r?.error ?? '');
  const head = TRUNCATED_HEAD.exec(whole);
  if (!head) return { text: unwrapUntrusted(typeof d === 'string' ? d : whole).replace(/\n$/, '') };
  const text = whole;
  let body = text.slice(head[0].length);
  const cut = OMITTED.exec(body);
  if (cut) body = body.slice(cut.index + cut[0].length);
  body = body.replace(/\n<\/untrusted_context>$/, '');
  while (TRAILERS.test(body)) body = body.replace(TRAILERS, '');
  return { text: body.replace(/^<untrusted_context>\nOutput: /, ''), file: head[1] };
}

/** The card body of a `!cmd`: its output, clipped once with one notice saying how to see the rest. */
export function userShellLines(
  call: ToolCall,
  p: Palette,
  opts: { width: number; max: number; expandHint: string },
): string[] {
  const { text, file } = userShellOutput(call);
  if (!text.trim() && !file) return [];
  // The shell tool may be a third party's, and a command's output is anyone's: made safe like any output.
  const rows = safeBlock(text)
    .split('\n')
    .flatMap((l) => wrapLine(l, opts.width - 4))
    .map((l) => `  ${p.gray('│')} ${l}`);
  const shown = rows.length > opts.max ? rows.slice(-opts.max) : rows;
  const hidden = rows.length - shown.length;
  const s = hidden === 1 ? '' : 's';
  if (file) return [`  ${p.gray(`… the output was long: its end is shown; the whole of it is in ${file}`)}`, ...shown];
  if (hidden) return [`  ${p.gray(`… first ${hidden} line${s} hidden (${opts.expandHint})`)}`, ...shown];
  return shown;
}
