import { textWidth } from '../text/text-width.js';
import type { ApprovalMode } from '../../scheduler/types.js';
import type { Palette } from '../text/palette.js';

export interface StatusInfo {
  model: string;
  approvalMode: ApprovalMode;
  serversReady: number;
  serversTotal: number;
  serversFailed: number;
  /** Configured but not started yet (lazy start): not a problem, unlike a failed one. */
  serversIdle?: number;
  /** Turned off for this session (`/mcp disable NAME`): not counted as ready, not a problem either. */
  serversDisabled?: number;
  tokens: number;
  /** `/vim` on: the input's mode. */
  vim?: 'NORMAL' | 'INSERT';
  /** Warnings and errors in the debug log not yet looked at (F12). */
  unseenLogs?: number;
  cwd: string;
  home?: string;
  /** Shell commands run in the sandbox (-s/--sandbox, tools.sandbox). */
  sandboxed?: boolean;
  /** The git branch of the working directory (Gemini CLI's footer shows it beside the folder). */
  branch?: string;
  /** The share of the model's context window the last request left free, 0–1. */
  contextLeft?: number;
  /** The model's task list (write_todos): tasks completed of those not cancelled. */
  todos?: { done: number; total: number };
}

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

const MODE_LABEL: Record<ApprovalMode, string> = {
  default: 'default',
  autoEdit: 'auto-edit',
  yolo: 'YOLO',
  plan: 'plan',
};

const MODE_CYCLE: ApprovalMode[] = ['default', 'autoEdit', 'yolo', 'plan'];

/** Shift+Tab: default → autoEdit → yolo → plan → default. */
export function nextApprovalMode(mode: ApprovalMode): ApprovalMode {
  return MODE_CYCLE[(MODE_CYCLE.indexOf(mode) + 1) % MODE_CYCLE.length]!;
}

export function shortenPath(path: string, home: string | undefined, max: number): string {
  let p = home && (path === home || path.startsWith(home + '/')) ? '~' + path.slice(home.length) : path;
  if (textWidth(p) <= max) return p;
  const parts = p.split('/');
  while (parts.length > 2 && textWidth(parts.join('/')) + 2 > max) parts.splice(1, 1);
  p = parts.length > 1 ? `${parts[0]}/…/${parts.slice(1).join('/')}` : p;
  return textWidth(p) <= max ? p : '…' + p.slice(-Math.max(1, max - 1));
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** The bottom line: cwd on the left; model, mode, servers and tokens on the right; fits `width`. */
export function formatStatusLine(s: StatusInfo, width: number, p: Palette): string {
  const mode = MODE_LABEL[s.approvalMode];
  const modeStyled =
    s.approvalMode === 'yolo' ? p.red(p.bold(mode)) : s.approvalMode === 'autoEdit' ? p.yellow(mode) : p.gray(mode);
  const idle = s.serversIdle ?? 0;
  const off = s.serversDisabled ?? 0;
  const notes = [
    idle ? `${idle} idle` : '',
    off ? `${off} disabled` : '',
    s.serversFailed ? `${s.serversFailed} failed` : '',
  ].filter(Boolean);
  const servers = `MCP ${s.serversReady}/${s.serversTotal}${notes.length ? ` (${notes.join(', ')})` : ''}`;
  const serversStyled = s.serversFailed
    ? p.red(servers)
    : s.serversReady + idle + off < s.serversTotal
      ? p.yellow(servers)
      : p.green(servers);
  const logs = s.unseenLogs ? ` · ${s.unseenLogs} log${s.unseenLogs === 1 ? '' : 's'} (F12)` : '';
  const vim = s.vim ? `[${s.vim}] ` : '';
  const sandbox = s.sandboxed ? ' · sandbox' : '';
  const todos = s.todos ? ` · todo ${s.todos.done}/${s.todos.total}` : '';
  const left = s.contextLeft === undefined ? '' : ` (${Math.round(s.contextLeft * 100)}% context left)`;
  const rightPlain = `${vim}${s.model} · ${mode}${sandbox}${todos} · ${servers} · ${formatTokens(s.tokens)} tokens${left}${logs}`;
  const right = `${p.yellow(vim)}${p.cyan(s.model)} · ${modeStyled}${p.green(sandbox)}${p.accent(todos)} · ${serversStyled} · ${p.gray(`${formatTokens(s.tokens)} tokens${left}`)}${p.yellow(logs)}`;
  const branch = s.branch ? ` (${s.branch})` : '';
  const room = width - textWidth(rightPlain) - textWidth(branch) - 2;
  if (room < 8) return right;
  const cwd = shortenPath(s.cwd, s.home, room) + branch;
  const gap = Math.max(1, width - textWidth(cwd) - textWidth(rightPlain));
  return `${p.gray(cwd)}${' '.repeat(gap)}${right}`;
}

/** The activity line above the input while the model or a tool works. */
export function formatActivity(label: string, elapsedMs: number, frame: number, p: Palette): string {
  const secs = Math.floor(elapsedMs / 1000);
  return `${p.accent(SPINNER[frame % SPINNER.length])} ${label} ${p.gray(`(${secs}s · esc to cancel)`)}`;
}
