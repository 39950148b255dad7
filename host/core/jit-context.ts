import { isAbsolute, resolve } from 'node:path';
import type { ToolRef } from '../scheduler/types.js';
import { builtinTool } from '../tools/builtin-catalogue.js';

/** What the JIT loader needs from the manager: the memory server's state and a resource read. */
export interface JitManager {
  states(): { alias: string; status: string; config: { builtIn: boolean } }[];
  readResource(alias: string, uri: string): Promise<{ contents: { uri?: string; text?: string }[] }>;
}

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

  constructor(
    private readonly manager: JitManager,
    private readonly cwd: string,
    private readonly log?: (msg: string) => void,
  ) {}

  /** The text to append to a successful call's output ('' when nothing is new). */
  async forCall(tool: JitTool, args: Record<string, unknown>): Promise<string> {
    const pick = tool.builtIn ? builtinTool(tool.serverAlias, tool.toolName)?.pathArgs : undefined;
    if (!pick) return '';
    const memory = this.manager
      .states()
      .find((s) => s.alias === 'memory' && s.config.builtIn && s.status === 'connected');
    if (!memory) return '';
    const blocks: string[] = [];
    for (const raw of pick(args)) {
      if (typeof raw !== 'string' || !raw) continue;
      const path = isAbsolute(raw) ? raw : resolve(this.cwd, raw);
      try {
        const res = await this.manager.readResource(
          'memory',
          `gemini-memory://context-for?path=${encodeURIComponent(path)}`,
        );
        for (const c of res.contents) {
          const key = c.uri ?? c.text ?? '';
          if (!c.text || this.seen.has(key)) continue;
          this.seen.add(key);
          blocks.push(c.text);
        }
      } catch (err) {
        // Supplementary: a failure never fails the tool call.
        this.log?.(`jit context for ${path}: ${(err as Error).message}`);
      }
    }
    return blocks.length ? `${JIT_HEADER}${blocks.join('\n\n')}${JIT_FOOTER}` : '';
  }
}
