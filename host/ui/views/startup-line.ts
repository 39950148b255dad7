import { contextFileNames, contextFilesInUse } from '../../core/context-files.js';
import type { App } from './app.js';
import type { ServerState } from '../../mcp/types.js';
import type { UiRuntime } from '../backend-types.js';
import { formatElapsed } from './tool-card.js';
import { safeText } from '../../safe-text.js';

/** A server still connecting after this long is called out as slow. */
const SLOW_MS = 2000;

/**
 * The start-up line's text: context files, then each server by name while any is still connecting, then
 * why the sandbox asked for cannot be built.
 */
export function formatStartup(
  states: ServerState[],
  contextFiles: { count: number; names: string } | undefined,
  sinceMs: number,
  app: Pick<App, 'palette'>,
  sandboxUnavailable?: string,
): string {
  const p = app.palette;
  const parts: string[] = [];
  if (contextFiles !== undefined && contextFiles.count >= 0)
    parts.push(
      contextFiles.count === 0
        ? 'no context files'
        : `${contextFiles.count} context file${contextFiles.count === 1 ? '' : 's'} (${safeText(contextFiles.names)}) loaded`,
    );
  const connecting = states.filter((s) => s.status === 'connecting');
  const failed = states.filter((s) => s.status === 'failed' || s.status === 'disconnected');
  const ready = states.filter((s) => s.status === 'connected' || s.status === 'idle');
  if (connecting.length > 0) {
    const slow = sinceMs >= SLOW_MS;
    const names = connecting.map((s) =>
      slow ? p.yellow(`${safeText(s.alias)} (${formatElapsed(sinceMs)})`) : safeText(s.alias),
    );
    parts.push(
      `MCP connecting: ${names.join(', ')}${ready.length ? p.gray(` · ready: ${ready.map((s) => safeText(s.alias)).join(', ')}`) : ''}`,
    );
  } else {
    parts.push(ready.length ? `MCP ready: ${ready.map((s) => safeText(s.alias)).join(', ')}` : 'no MCP server ready');
  }
  if (failed.length) parts.push(p.red(`failed: ${failed.map((s) => safeText(s.alias)).join(', ')} (/mcp for why)`));
  // The shell server refuses to start without it; the user needs what to install, not only "failed: shell".
  if (sandboxUnavailable) parts.push(p.red(safeText(sandboxUnavailable)));
  return p.gray('ℹ ') + parts.join(p.gray(' · '));
}

/**
 * The line at the top of a new chat saying what was loaded: context files and MCP servers, named while
 * they connect (a slow one shows how long it has taken). It updates in place until every server settled.
 */
export class StartupLine {
  private item?: number;
  /** The context files in use (the memory server's and extensions'); null while unknown, count -1 when unknown for good. */
  private contextFiles: { count: number; names: string } | null = null;
  private reading = false;
  private timer?: NodeJS.Timeout;
  private readonly started = Date.now();

  constructor(
    private readonly app: App,
    private readonly runtime: UiRuntime,
  ) {}

  start(): void {
    this.item = this.app.conv.add({ kind: 'info', text: '' });
    this.runtime.manager.on('status', this.refresh);
    this.timer = setInterval(this.refresh, 1000);
    this.timer.unref();
    this.refresh();
  }

  private readonly refresh = (): void => {
    const states = this.runtime.manager.states();
    if (
      this.contextFiles === null &&
      !this.reading &&
      states.some((s) => s.alias === 'memory' && s.status === 'connected')
    )
      void this.readContextFiles();
    const text = formatStartup(
      states,
      this.contextFiles ?? undefined,
      Date.now() - this.started,
      this.app,
      this.runtime.sandbox.unavailable,
    );
    if (this.item !== undefined) {
      this.app.conv.update(this.item, (it) => {
        if (it.kind === 'info') it.text = text;
      });
    }
    this.app.requestRender();
    const settled = states.every((s) => s.status !== 'connecting');
    const memoryPending =
      this.contextFiles === null &&
      states.some((s) => s.alias === 'memory' && s.status !== 'failed' && s.status !== 'disconnected');
    if (settled && !memoryPending) this.stop();
  };

  private async readContextFiles(): Promise<void> {
    this.reading = true;
    const files = await contextFilesInUse(this.runtime.manager, this.runtime.extensions);
    this.contextFiles = files ? { count: files.length, names: contextFileNames(files) } : { count: -1, names: '' };
    this.reading = false;
    this.refresh();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.runtime.manager.off('status', this.refresh);
  }
}
