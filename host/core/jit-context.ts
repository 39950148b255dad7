import { isAbsolute, resolve } from 'node:path';
import type { ToolRef } from '../scheduler/types.js';
import { META } from '../../protocol/meta.js';
import { settledStamp } from '../../protocol/path-stamp.js';
import { builtinTool } from '../tools/builtin-catalogue.js';

/** What the JIT loader needs from the manager: the memory server's state, the roots and a resource read. */
export interface JitManager {
  status(alias: string): { status: string; builtIn: boolean } | undefined;
  getRoots(): string[];
  readResource(
    alias: string,
    uri: string,
  ): Promise<{ contents: { uri?: string; text?: string }[]; _meta?: Record<string, unknown> }>;
}

type Found = readonly { uri?: string; text?: string }[];

/** Answers kept, per resource address: at most this many (the oldest goes first), each of at most this much text. */
const MAX_KEPT = 256;
const MAX_KEPT_CHARS = 32_000;

/** This module's view of the one tool type. */
export type JitTool = Pick<ToolRef, 'serverAlias' | 'toolName' | 'builtIn'>;

export const JIT_HEADER = '\n\n--- Newly Discovered Project Context ---\n';
export const JIT_FOOTER = '\n--- End Project Context ---';

/**
 * Subdirectory context loaded just in time, as Gemini CLI does: when the model reads, lists or writes in a
 * directory below a workspace root, that directory's context files (GEMINI.md or `context.fileName`) and
 * those of the directories between it and the root are appended once to the tool's output. The memory
 * server finds and renders them (resource `gemini-memory://context-for?path=…`); this side only decides
 * when to ask and remembers what the model has already seen this session.
 */
export class JitContext {
  private readonly seen = new Set<string>();
  /**
   * The memory server's answers with the stamps of the paths it named as deciding them (`_meta`
   * resourceInputs) and the roots then: reused while every stamp holds, so a read in a folder already
   * looked at costs a few `stat`s instead of a round trip to the memory server.
   */
  private readonly kept = new Map<string, { roots: string; stamps: [string, string][]; found: Found }>();

  constructor(
    private readonly manager: JitManager,
    private readonly cwd: string,
    private readonly log?: (msg: string) => void,
  ) {}

  /**
   * Starts the lookup for a call's paths; the function it resolves to gives the text to append to the call's
   * output ('' when nothing is new) and remembers that text as seen. It is called only once the call has
   * succeeded, so a failed call, whose output the model never gets, leaves the context for a later one.
   */
  async lookup(tool: JitTool, args: Record<string, unknown>): Promise<() => string> {
    const pick = tool.builtIn ? builtinTool(tool.serverAlias, tool.toolName)?.pathArgs : undefined;
    if (!pick) return () => '';
    const memory = this.manager.status('memory');
    if (!memory?.builtIn || memory.status !== 'connected') return () => '';
    const found: { uri?: string; text?: string }[] = [];
    for (const raw of pick(args)) {
      if (typeof raw !== 'string' || !raw) continue;
      const path = isAbsolute(raw) ? raw : resolve(this.cwd, raw);
      try {
        found.push(...(await this.contextFor(path)));
      } catch (err) {
        // Supplementary: a failure never fails the tool call.
        this.log?.(`jit context for ${path}: ${(err as Error).message}`);
      }
    }
    return () => this.take(found);
  }

  /** The memory server's context files for a path, or the kept answer while nothing it depends on changed. */
  private async contextFor(path: string): Promise<Found> {
    const uri = `gemini-memory://context-for?path=${encodeURIComponent(path)}`;
    const roots = JSON.stringify(this.manager.getRoots());
    const kept = this.kept.get(uri);
    if (kept?.roots === roots && kept.stamps.every(([p, stamp]) => settledStamp(p) === stamp)) return kept.found;
    const res = await this.manager.readResource('memory', uri);
    this.kept.delete(uri);
    const inputs = res._meta?.[META.resourceInputs];
    const chars = res.contents.reduce((n, c) => n + (c.text?.length ?? 0), 0);
    if (chars <= MAX_KEPT_CHARS && Array.isArray(inputs) && inputs.every((p) => typeof p === 'string')) {
      const stamps = inputs.map((p) => [p, settledStamp(p)] as const);
      if (stamps.every((e): e is [string, string] => e[1] !== undefined)) {
        if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
        this.kept.set(uri, { roots, stamps, found: res.contents });
      }
    }
    return res.contents;
  }

  /** The blocks not yet seen, marked seen, framed; '' when none. */
  private take(found: Found): string {
    const blocks: string[] = [];
    for (const c of found) {
      const key = c.uri ?? c.text ?? '';
      if (!c.text || this.seen.has(key)) continue;
      this.seen.add(key);
      blocks.push(c.text);
    }
    return blocks.length ? `${JIT_HEADER}${blocks.join('\n\n')}${JIT_FOOTER}` : '';
  }
}
