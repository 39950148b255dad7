import type { ServerGeminiStreamEvent } from '../../core/events.js';
import type { RunStats } from '../../core/run-stats.js';
import { latestTodos } from '../../core/session-todos.js';
import { safeText } from '../../safe-text.js';
import { todoProgress } from '../../tools/write-todos.js';
import { formatTokens } from '../views/status-line.js';
import type { ChatCommand, ChatCommandContext } from './command-context.js';

/** Feeds `/stats` from the model stream: usage per model, failed requests. */
export function recordStreamStats(stats: RunStats, ev: ServerGeminiStreamEvent, model: string): void {
  if (ev.type === 'usage') stats.usage(ev.value.model, ev.value.usage, ev.value.durationMs);
  else if (ev.type === 'error' || ev.type === 'invalid_stream') stats.apiError(model);
}

function rate(ok: number, all: number): string {
  return all ? `${((ok / all) * 100).toFixed(1)}%` : '—';
}

/** The model's task list (write_todos) as the conversation left it: progress and what is left. */
function todoLine(ctx: ChatCommandContext): string[] {
  const todos = ctx.session ? latestTodos(ctx.session.client.getHistory()) : undefined;
  if (!todos?.length) return [];
  const { done, total } = todoProgress(todos);
  const count = (status: string) => todos.filter((t) => t.status === status).length;
  const left = [
    [count('in_progress'), 'in progress'],
    [count('pending'), 'pending'],
    [count('blocked'), 'blocked'],
  ].filter(([n]) => n);
  return [
    `  todos           ${done}/${total} done${left.length ? ` (${left.map(([n, w]) => `${n} ${w}`).join(', ')})` : ''}`,
  ];
}

/**
 * `/stats`: session totals, then per model and per tool with success rates; `/stats model` and
 * `/stats tools` show only that part (Gemini CLI's sub-commands). Tool time leaves out the user's answer.
 */
export function formatChatStats(ctx: ChatCommandContext, section?: string): string {
  const p = ctx.palette;
  const s = ctx.stats;
  const secs = Math.floor((Date.now() - ctx.startedAt) / 1000);
  const t = s.tools;
  const requests = Object.values(s.models).reduce((n, m) => n + m.api.totalRequests, 0);
  const tokens = s.totalTokens();
  const lines: string[] = [];
  if (section && section !== 'model' && section !== 'tools')
    return p.red(`/stats takes model or tools (or nothing), not "${section}".`);
  if (!section)
    lines.push(
      p.bold('Session stats'),
      `  duration        ${Math.floor(secs / 60)}m ${secs % 60}s`,
      `  model requests  ${requests} (${formatTokens(tokens)} tokens)`,
      `  tool calls      ${t.totalCalls} (${p.green(`${t.totalSuccess} ok`)}, ${p.red(`${t.totalFail} failed or cancelled`)}; success rate ${rate(t.totalSuccess, t.totalCalls)})`,
      `  file changes    +${s.files.totalLinesAdded} -${s.files.totalLinesRemoved} lines`,
      ...todoLine(ctx),
    );
  const models = section === 'tools' ? [] : Object.entries(s.models);
  if (section === 'model' && !models.length) lines.push(p.gray('No model requests yet.'));
  if (models.length)
    lines.push(
      p.bold('Models'),
      `  ${'model'.padEnd(24)} ${'requests'.padStart(8)} ${'errors'.padStart(6)} ${'ok rate'.padStart(7)} ${'avg ms'.padStart(7)} ${'prompt'.padStart(8)} ${'output'.padStart(8)} ${'cached'.padStart(7)}`,
    );
  for (const [name, m] of models) {
    const ok = m.api.totalRequests - m.api.totalErrors;
    const avg = ok ? Math.round(m.api.totalLatencyMs / ok) : 0;
    lines.push(
      `  ${name.padEnd(24)} ${String(m.api.totalRequests).padStart(8)} ${String(m.api.totalErrors).padStart(6)} ${rate(ok, m.api.totalRequests).padStart(7)} ${String(avg).padStart(7)} ${formatTokens(m.tokens.prompt).padStart(8)} ${formatTokens(m.tokens.candidates).padStart(8)} ${formatTokens(m.tokens.cached).padStart(7)}`,
    );
  }
  // Sampling runs on the user's model and tokens even when no prompt asked (a trusted server): shown here.
  const sampling = ctx.runtime?.clientRequests?.sampling.entries() ?? [];
  if (sampling.length && section !== 'tools')
    lines.push(
      p.bold('Sampling (servers using the model)'),
      `  ${'server'.padEnd(24)} ${'asked'.padStart(6)} ${'ran'.padStart(5)} ${'denied'.padStart(6)} ${'failed'.padStart(6)} ${'prompt'.padStart(8)} ${'output'.padStart(8)}`,
      ...sampling.map(
        ([alias, s]) =>
          `  ${safeText(alias).padEnd(24)} ${String(s.requests).padStart(6)} ${String(s.approved).padStart(5)} ${String(s.denied).padStart(6)} ${String(s.failed).padStart(6)} ${formatTokens(s.promptTokens).padStart(8)} ${formatTokens(s.outputTokens).padStart(8)}`,
      ),
    );
  const tools = section === 'model' ? [] : Object.entries(t.byName);
  if (section === 'tools' && !tools.length) lines.push(p.gray('No tool calls yet.'));
  if (tools.length)
    lines.push(
      p.bold('Tools'),
      `  ${'tool'.padEnd(36)} ${'calls'.padStart(5)} ${'ok'.padStart(4)} ${'failed'.padStart(6)} ${'ok rate'.padStart(7)} ${'avg ms'.padStart(7)}`,
    );
  for (const [name, b] of tools) {
    lines.push(
      `  ${name.padEnd(36)} ${String(b.count).padStart(5)} ${String(b.success).padStart(4)} ${String(b.fail).padStart(6)} ${rate(b.success, b.count).padStart(7)} ${String(Math.round(b.durationMs / Math.max(1, b.count))).padStart(7)}`,
    );
  }
  return lines.join('\n');
}

/** `/debug [N|clear]`: the last lines of the debug log (host diagnostics, servers' log messages). */
export const statsCommand: ChatCommand = (input, ctx) => ctx.print(formatChatStats(ctx, input.args[0]));
