import type { FileDiffDisplay } from '../../protocol/tool-result.js';
import type { ToolCall, ToolCallStatus } from '../scheduler/types.js';
import { colourDiff, diffStats } from './diff-view.js';
import type { Palette } from './palette.js';
import { wrapLine } from './wrap.js';

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

export interface CardOptions {
  width: number;
  now: number;
  /** Lines of result / live output to show (more lines collapse into "… N more"). */
  maxLines?: number;
  /** When the call began executing (after any approval wait); defaults to its start time. */
  execStart?: number;
}

/** One line describing what the call does, from its arguments (the MCP equivalent of upstream's invocation description). */
export function describeArgs(name: string, args: Record<string, unknown>): string {
  const pick = (k: string) => (typeof args[k] === 'string' ? (args[k] as string) : undefined);
  const main = pick('command') ?? pick('file_path') ?? pick('absolute_path') ?? pick('path') ?? pick('dir_path') ?? pick('url') ?? pick('pattern') ?? pick('query');
  if (main !== undefined) {
    const extra = pick('description');
    return extra && name.includes('shell') ? `${main} (${extra})` : main;
  }
  const json = JSON.stringify(args);
  return json === '{}' ? '' : json;
}

function isDiff(d: unknown): d is FileDiffDisplay {
  return typeof d === 'object' && d !== null && typeof (d as FileDiffDisplay).fileDiff === 'string';
}

/** The text the model would read (`functionResponse.response.output`). */
function responseOutput(call: ToolCall): string | undefined {
  const fr = call.response?.responseParts[0]?.functionResponse?.response as Record<string, unknown> | undefined;
  return typeof fr?.output === 'string' ? fr.output : undefined;
}

function clip(lines: string[], max: number, fromEnd: boolean, p: Palette): string[] {
  if (lines.length <= max) return lines;
  const more = p.gray(`… ${lines.length - max} more line${lines.length - max === 1 ? '' : 's'}`);
  return fromEnd ? [more, ...lines.slice(-max)] : [...lines.slice(0, max), more];
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
  const max = opts.maxLines ?? 12;
  const { status } = call;
  const colour = status === 'success' ? p.green : status === 'error' ? p.red : status === 'cancelled' ? p.gray : status === 'awaiting_approval' ? p.yellow : p.cyan;
  const passive = call.request.isClientInitiated ? p.gray(' (passive)') : '';
  const desc = describeArgs(call.request.name, call.request.args);
  const head = `${colour(ICON[status])} ${p.bold(call.request.name)}${passive} ${p.gray(oneLine(desc, Math.max(10, opts.width - call.request.name.length - 20)))}`;
  let statusText = LABEL[status];
  const begun = Math.max(call.startTime, opts.execStart ?? 0);
  if (status === 'executing') statusText += ` ${formatElapsed(Math.max(0, opts.now - begun))}${formatProgress(call.progress)}`;
  else if (call.endTime && (status === 'success' || status === 'error')) statusText += ` in ${formatElapsed(Math.max(0, call.endTime - begun))}`;
  const lines = [head, `  ${colour(statusText)}`];
  // Styled per row: the gutter's colour reset would otherwise end a style opened on an earlier row.
  const indent = (s: string, style: (t: string) => string = (t) => t) =>
    s.split('\n').flatMap((l) => wrapLine(l, opts.width - 4)).map((l) => `  ${p.gray('│')} ${style(l)}`);

  if (status === 'executing' && call.liveOutput) {
    lines.push(...clip(indent(call.liveOutput.replace(/\n$/, '')), max, true, p));
    return lines.join('\n');
  }
  const r = call.response;
  if (!r) return lines.join('\n');
  if (status === 'error' && r.error) {
    lines.push(...clip(indent(r.error, p.red), max, false, p));
    return lines.join('\n');
  }
  const d = r.resultDisplay;
  const output = call.request.isClientInitiated && status === 'success' && !isDiff(d) ? responseOutput(call) : undefined;
  if (output !== undefined && output.trim() !== '') {
    // Passive calls exist to show the user the result: the full output, not the one-line summary.
    if (typeof d === 'string' && d.trim() && !output.includes(d.trim())) {
      lines.push(...d.trim().split('\n').flatMap((l) => wrapLine(l, opts.width - 2)).map((l) => `  ${p.gray(l)}`));
    }
    lines.push(...clip(indent(output.replace(/\n$/, '')), max * 2, false, p));
  } else if (isDiff(d)) {
    const st = diffStats(d.fileDiff);
    lines.push(`  ${d.isNewFile ? 'new file ' : ''}${p.bold(d.fileName)} ${p.green(`+${st.added}`)} ${p.red(`-${st.removed}`)}`);
    lines.push(...clip(indent(colourDiff(d.fileDiff, p)), max * 2, false, p));
  } else if (typeof d === 'string' && d.trim() !== '') {
    const text = d.replace(/\n$/, '');
    lines.push(...clip(indent(text, status === 'cancelled' ? p.gray : undefined), max, status === 'cancelled', p));
  } else if (status === 'cancelled' && call.liveOutput) {
    lines.push(...clip(indent(call.liveOutput.replace(/\n$/, ''), p.gray), max, true, p));
  }
  if (r.outputFile) lines.push(p.gray(`  full output: ${r.outputFile}`));
  return lines.join('\n');
}
