import type { ToolCall, ToolCallStatus } from '../../scheduler/types.js';
import { type FileDiffDisplay, unwrapUntrusted } from '../../../protocol/tool-result.js';
import { diffSummary, renderDiff } from './diff-view.js';
import type { Palette } from '../text/palette.js';
import { wrapLine } from '../text/wrap.js';
import { userShellLines } from './user-shell-card.js';
import { safeBlock, safeText } from '../../safe-text.js';
import { builtinByName } from '../../tools/builtin-catalogue.js';
import { bareToolName } from '../../../protocol/tool-names.js';

const ICON: Record<ToolCallStatus, string> = {
  validating: '○',
  scheduled: '○',
  awaiting_approval: '?',
  executing: '⊷',
  success: '✓',
  error: '✗',
  cancelled: '-',
};

const LABEL: Record<ToolCallStatus, string> = {
  validating: 'validating',
  scheduled: 'scheduled',
  awaiting_approval: 'awaiting approval',
  executing: 'executing',
  success: 'done',
  error: 'error',
  cancelled: 'cancelled',
};

/** The screen of a command running in a terminal the user can type into, and whether keys go to it. */
export interface TerminalView {
  rows: string[];
  focused: boolean;
}

/** Gemini CLI 0.61's hints beside a command's live terminal. */
export const FOCUS_HINT = '(Tab to focus)';
export const UNFOCUS_HINT = '(Shift+Tab to unfocus)';

export interface CardOptions {
  width: number;
  /** The confirmation dialog is open for this running call: show it as awaiting approval. */
  asking?: boolean;
  now: number;
  /** Lines of result / live output to show; longer output shows its last lines (its first lines for diffs). */
  maxLines?: number;
  /** Ctrl+O: show every line. */
  expanded?: boolean;
  /** Line numbers beside a diff (`ui.showLineNumbers`; on unless false). */
  lineNumbers?: boolean;
  /** When the call began executing (after any approval wait); defaults to its start time. */
  execStart?: number;
  /** The live screen of the call's command, when it runs in a terminal. */
  terminal?: TerminalView;
}

/** One line describing what the call does, from its arguments (the MCP equivalent of upstream's invocation description). */
export function describeArgs(name: string, args: Record<string, unknown>): string {
  const pick = (k: string) => (typeof args[k] === 'string' ? (args[k] as string) : undefined);
  const main =
    pick('command') ??
    pick('file_path') ??
    pick('absolute_path') ??
    pick('path') ??
    pick('dir_path') ??
    pick('url') ??
    pick('pattern') ??
    pick('query');
  if (main !== undefined) {
    const extra = pick('description');
    return extra && name.includes('shell') ? `${main} (${extra})` : main;
  }
  // A built-in without a path or command to show (write_todos, ask_user, the plan tools): Gemini CLI's
  // one-line title of the call rather than its raw arguments.
  const bare = bareToolName(name);
  const row = builtinByName(bare);
  // One line: models often write line breaks in a question as the two characters `\n`.
  if (row) return row.title(args, (p) => (typeof p === 'string' ? p : '')).replace(/(?:\\n|\s)+/g, ' ');
  const json = JSON.stringify(args);
  return json === '{}' ? '' : json;
}

function isDiff(d: unknown): d is FileDiffDisplay {
  return typeof d === 'object' && d !== null && typeof (d as FileDiffDisplay).fileDiff === 'string';
}

/** Said on a clipped card; the conversation looks for it to offer the key in the footer. */
export const EXPAND_HINT = 'ctrl+o to expand';

/**
 * Long output keeps its end (test summaries and errors live there) under a line saying how much is
 * hidden; a diff keeps its start. `max` of Infinity shows everything.
 */
function clip(lines: string[], max: number, fromEnd: boolean, p: Palette): string[] {
  if (lines.length <= max) return lines;
  const n = lines.length - max;
  const s = n === 1 ? '' : 's';
  if (fromEnd) return [`  ${p.gray(`… first ${n} line${s} hidden (${EXPAND_HINT})`)}`, ...lines.slice(-max)];
  return [...lines.slice(0, max), `  ${p.gray(`… ${n} more line${s} (${EXPAND_HINT})`)}`];
}

function isJson(text: string): boolean {
  const t = text.trim();
  if (!/^[[{]/.test(t)) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > width ? `${flat.slice(0, Math.max(1, width - 1))}…` : flat;
}

/** ` · 40%` with a known total, ` · step 3` without one; nothing before the first notification. */
export function formatProgress(p: ToolCall['progress']): string {
  if (!p) return '';
  if (p.total && p.total > 0) return ` · ${Math.min(100, Math.floor((p.progress / p.total) * 100))}%`;
  return ` · step ${p.progress}`;
}

export function formatElapsed(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  return `${Math.floor(s / 60)}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
}

/** The card of one tool call as ANSI text: header, status, then live output or the result display. */
export function formatToolCard(call: ToolCall, p: Palette, opts: CardOptions): string {
  const max = opts.expanded ? Number.POSITIVE_INFINITY : (opts.maxLines ?? 12);
  const status = opts.asking && call.status === 'executing' ? 'awaiting_approval' : call.status;
  const colour =
    status === 'success'
      ? p.green
      : status === 'error'
        ? p.red
        : status === 'cancelled'
          ? p.gray
          : status === 'awaiting_approval'
            ? p.yellow
            : p.cyan;
  // A call the user ran (its result not sent to the model) says so; a custom command's says which command.
  const passive = call.request.isClientInitiated
    ? p.gray(call.request.origin ? ` (from ${safeText(call.request.origin)})` : ' (passive)')
    : '';
  // Names, arguments and output come from the model and the server: made safe before our styling.
  const name = safeText(call.request.name);
  const desc = safeText(describeArgs(call.request.name, call.request.args));
  const head = `${colour(ICON[status])} ${p.bold(name)}${passive} ${p.gray(oneLine(desc, Math.max(10, opts.width - name.length - 20)))}`;
  let statusText = LABEL[status];
  const begun = Math.max(call.startTime, opts.execStart ?? 0);
  if (status === 'executing')
    statusText += ` ${formatElapsed(Math.max(0, opts.now - begun))}${formatProgress(call.progress)}`;
  else if (call.endTime && (status === 'success' || status === 'error'))
    statusText += ` in ${formatElapsed(Math.max(0, call.endTime - begun))}`;
  const lines = [head, `  ${colour(statusText)}`];
  // Styled per row: the gutter's colour reset would otherwise end a style opened on an earlier row.
  const indent = (s: string, style: (t: string) => string = (t) => t) =>
    s
      .split('\n')
      .flatMap((l) => wrapLine(l, opts.width - 4))
      .map((l) => `  ${p.gray('│')} ${style(l)}`);

  if (opts.terminal && (status === 'executing' || status === 'cancelled')) {
    lines.push(...terminalLines(opts.terminal, p, opts.width, status === 'cancelled'));
    return lines.join('\n');
  }
  if (status === 'executing' && call.liveOutput) {
    lines.push(...clip(indent(safeBlock(call.liveOutput.replace(/\n$/, ''))), max, true, p));
    return lines.join('\n');
  }
  const r = call.response;
  if (!r) return lines.join('\n');
  if (call.request.typedByUser && (status === 'success' || status === 'error')) {
    lines.push(...userShellLines(call, p, { width: opts.width, max: max * 2, expandHint: EXPAND_HINT }));
    return lines.join('\n');
  }
  if (status === 'error' && r.error) {
    lines.push(...clip(indent(safeBlock(unwrapUntrusted(r.error)), p.red), max, true, p));
    return lines.join('\n');
  }
  if (status === 'cancelled' && call.liveOutput) {
    // What streamed before Ctrl-C / Esc stays, and the card says it was cut short.
    lines.push(...clip(indent(safeBlock(call.liveOutput.replace(/\n$/, ''))), max, true, p));
    lines.push(`  ${p.gray('│')} ${p.yellow('^C cancelled')}`);
    return lines.join('\n');
  }
  const d = r.resultDisplay;
  const raw =
    call.request.isClientInitiated && status === 'success' && !isDiff(d)
      ? unwrapUntrusted(call.response?.responseText ?? '')
      : undefined;
  // JSON written for the model (`{"success":true,…}`) is no read for the user when the tool gave a display.
  const output = raw !== undefined && typeof d === 'string' && d.trim() && isJson(raw) ? undefined : raw;
  if (output !== undefined && output.trim() !== '') {
    // Passive calls exist to show the user the result: the full output, not the one-line summary.
    if (typeof d === 'string' && d.trim() && !output.includes(d.trim())) {
      lines.push(
        ...safeBlock(d.trim())
          .split('\n')
          .flatMap((l) => wrapLine(l, opts.width - 2))
          .map((l) => `  ${p.gray(l)}`),
      );
    }
    lines.push(...clip(indent(safeBlock(output.replace(/\n$/, ''))), max * 2, true, p));
  } else if (isDiff(d)) {
    lines.push(`  ${d.isNewFile ? 'new file ' : ''}${p.bold(safeText(d.fileName))} ${diffSummary(d.fileDiff, p)}`);
    // Collapsed, the card previews the first change with both sides, short enough that its summary line
    // stays on an 80×24 screen; expanded, it shows every hunk.
    const diff = renderDiff(safeBlock(d.fileDiff), p, { lineNumbers: opts.lineNumbers, firstHunk: max !== Infinity });
    lines.push(...clip(indent(diff), max, false, p));
  } else if (typeof d === 'string' && d.trim() !== '') {
    const text = safeBlock(unwrapUntrusted(d.replace(/\n$/, '')));
    lines.push(...clip(indent(text, status === 'cancelled' ? p.gray : undefined), max, true, p));
  }
  if (r.outputFile) lines.push(p.gray(`  full output: ${r.outputFile}`));
  return lines.join('\n');
}

/**
 * A live terminal: its rows down to the last one with text (a prompt on the first row is not followed by a
 * screenful of blanks), cut to the card's width, and the key that moves the typing into or out of it; a
 * cancelled command's last screen says it was cut short instead.
 */
function terminalLines(view: TerminalView, p: Palette, width: number, cancelled: boolean): string[] {
  let last = view.rows.length;
  while (last > 1 && view.rows[last - 1]!.trim() === '') last--;
  const room = Math.max(1, width - 4);
  const bar = view.focused ? p.accent('┃') : p.gray('│');
  const rows = view.rows.slice(0, last).map((r) => `  ${bar} ${safeText(r).slice(0, room)}`);
  if (cancelled) rows.push(`  ${p.gray('│')} ${p.yellow('^C cancelled')}`);
  else rows.push(`  ${view.focused ? p.accent(UNFOCUS_HINT) : p.gray(FOCUS_HINT)}`);
  return rows;
}
