import type { ToolCall } from '../scheduler/types.js';
import type { Palette } from './text/palette.js';
import { formatTokens } from './views/status-line.js';

/** Counters behind `/stats` and the status line's token count. */
export class SessionStats {
  readonly started = Date.now();
  requests = 0;
  promptTokens = 0;
  outputTokens = 0;
  totalTokens = 0;
  readonly tools = { success: 0, error: 0, cancelled: 0 };

  addUsage(u: { promptTokenCount?: number; candidatesTokenCount?: number; totalTokenCount?: number }): void {
    this.requests++;
    this.promptTokens += u.promptTokenCount ?? 0;
    this.outputTokens += u.candidatesTokenCount ?? 0;
    this.totalTokens += u.totalTokenCount ?? 0;
  }

  countCall(c: ToolCall): void {
    if (c.status === 'success') this.tools.success++;
    else if (c.status === 'error') this.tools.error++;
    else if (c.status === 'cancelled') this.tools.cancelled++;
  }

  format(p: Palette, now = Date.now()): string {
    const mins = Math.floor((now - this.started) / 60000);
    const secs = Math.floor(((now - this.started) % 60000) / 1000);
    const t = this.tools;
    return [
      p.bold('Session stats'),
      `  duration        ${mins}m ${secs}s`,
      `  model requests  ${this.requests}`,
      `  tokens          ${formatTokens(this.totalTokens)} total (${formatTokens(this.promptTokens)} prompt, ${formatTokens(this.outputTokens)} output)`,
      `  tool calls      ${t.success + t.error + t.cancelled} (${p.green(`${t.success} ok`)}, ${p.red(`${t.error} failed`)}, ${t.cancelled} cancelled)`,
    ].join('\n');
  }
}
