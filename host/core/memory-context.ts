import type { HostRuntime } from './runtime.js';
import { resourceText } from '../mcp/util.js';

export const MEMORY_CONTEXT_URI = 'gemini-memory://context';

/**
 * The memory server's assembled context, read through MCP resources and re-read when the server signals
 * `resources/updated` (after save_memory) or reconnects.
 */
export class MemoryContext {
  private text = '';
  private loadedFrom?: string;
  private stale = true;
  private subscribed = new Set<string>();

  constructor(
    private readonly manager: HostRuntime['manager'],
    private readonly log?: (msg: string) => void,
  ) {
    manager.on('resource_updated', this.onUpdated);
    manager.on('status', this.onStatus);
  }

  private readonly onUpdated = (_alias: string, uri: string): void => {
    if (uri === MEMORY_CONTEXT_URI) this.stale = true;
  };

  private readonly onStatus = (state: { alias?: string; status?: string }): void => {
    if (state?.status === 'connected') this.stale = true;
  };

  /** The server offering the context resource; by convention the built-in `memory`. */
  private source(): string | undefined {
    // An idle server (declared from the listing cache) counts: reading from it may not need it running.
    const states = this.manager.states().filter((s) => s.status === 'connected' || s.status === 'idle');
    return (
      states.find((s) => s.resources?.some((r) => r.uri === MEMORY_CONTEXT_URI))?.alias ??
      states.find((s) => s.alias === 'memory')?.alias
    );
  }

  async get(): Promise<string> {
    const alias = this.source();
    if (!alias) return this.text;
    if (!this.stale && alias === this.loadedFrom) return this.text;
    try {
      const res = await this.manager.readResourceCached(alias, MEMORY_CONTEXT_URI);
      this.text = resourceText(res);
      this.loadedFrom = alias;
      // A cached text is re-checked against its input files on every request; only a live read subscribes.
      if (res.fromCache) return this.text;
      this.stale = false;
      if (!this.subscribed.has(alias)) {
        this.subscribed.add(alias);
        await this.manager.subscribeResource(alias, MEMORY_CONTEXT_URI).catch((err: unknown) => {
          this.log?.(`memory: cannot subscribe to ${MEMORY_CONTEXT_URI}: ${(err as Error).message}`);
        });
      }
    } catch (err) {
      // Not retried on every request: the next update or reconnect marks it stale again.
      this.loadedFrom = alias;
      this.stale = false;
      this.log?.(`memory: cannot read ${MEMORY_CONTEXT_URI} from ${alias}: ${(err as Error).message}`);
    }
    return this.text;
  }

  dispose(): void {
    this.manager.off('resource_updated', this.onUpdated);
    this.manager.off('status', this.onStatus);
  }
}
