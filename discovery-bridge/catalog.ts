import type { Logger } from '../servers/common/logger.js';
import { parseDeclarations, type DiscoveredTool } from './declarations.js';
import { OUTPUT_LIMIT, runProcess } from './run-process.js';

export interface CatalogOptions {
  /** Program + args of the discovery command, already split. */
  command: string[];
  cwd: string;
  log: Logger;
  /** 0: no limit. */
  timeoutMs: number;
}

export type DiscoveryOutcome = { ok: true; tools: DiscoveredTool[]; warnings: string[] } | { ok: false; error: string };

/** Runs the discovery command once and reads its output (exact messages). */
export async function runDiscovery(opts: CatalogOptions): Promise<DiscoveryOutcome> {
  const [program, ...args] = opts.command;
  const run = await runProcess({ program, args, cwd: opts.cwd, timeoutMs: opts.timeoutMs, maxBytes: OUTPUT_LIMIT });
  const tail = run.stderr.trim() ? ` Stderr: ${run.stderr.trim().slice(-2000)}` : '';
  if (run.spawnError) return { ok: false, error: `Tool discovery command could not be started: ${run.spawnError}` };
  if (run.killedFor === 'overflow') {
    return { ok: false, error: `Tool discovery command output exceeded size limit of ${OUTPUT_LIMIT} bytes.` };
  }
  if (run.killedFor === 'timeout') {
    return { ok: false, error: `Tool discovery command timed out after ${opts.timeoutMs / 1000} seconds.${tail}` };
  }
  if (run.code !== 0) {
    const how = run.code === null ? `was killed by signal ${run.signal}` : `failed with exit code ${run.code}`;
    return { ok: false, error: `Tool discovery command ${how}.${tail}` };
  }
  try {
    return { ok: true, ...parseDeclarations(run.stdout) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/**
 * The current set of discovered tools, shared by every session of the bridge. A refresh replaces the
 * whole set (a failed one leaves no tools, as upstream's rediscovery does) and tells listeners when
 * the published set changed.
 */
export class DiscoveryCatalog {
  private current: DiscoveredTool[] = [];
  private error: string | undefined = 'discovery has not run yet';
  private fingerprint = '[]';
  private listeners = new Set<() => void>();
  private running: Promise<boolean> | undefined;
  private again = false;

  constructor(private readonly opts: CatalogOptions) {}

  get tools(): readonly DiscoveredTool[] {
    return this.current;
  }

  /** Why the last discovery failed, or undefined when it succeeded. */
  get lastError(): string | undefined {
    return this.error;
  }

  find(name: string): DiscoveredTool | undefined {
    return this.current.find((t) => t.name === name);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Re-runs discovery; resolves whether the tool set changed. Requests that arrive while one runs are
   * folded into a single follow-up run, so a burst of SIGHUPs costs at most two runs.
   */
  refresh(): Promise<boolean> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let changed = false;
      do {
        this.again = false;
        changed = (await this.runOnce()) || changed;
      } while (this.again);
      this.running = undefined;
      return changed;
    })();
    return this.running;
  }

  private async runOnce(): Promise<boolean> {
    const outcome = await runDiscovery(this.opts);
    if (outcome.ok) {
      for (const w of outcome.warnings) this.opts.log.warn(`discovery: ${w}`);
      this.error = undefined;
      this.current = outcome.tools;
      this.opts.log.info(`discovery: ${outcome.tools.length} tool(s): ${outcome.tools.map((t) => t.name).join(', ')}`);
    } else {
      this.error = outcome.error;
      this.current = [];
      this.opts.log.error(`discovery failed: ${outcome.error}`);
    }
    const fingerprint = JSON.stringify(this.current);
    if (fingerprint === this.fingerprint) return false;
    this.fingerprint = fingerprint;
    for (const listener of this.listeners) listener();
    return true;
  }
}
