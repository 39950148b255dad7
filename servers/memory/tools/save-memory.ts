import * as z from 'zod';
import { basename } from 'node:path';
import { defineTool, type ToolDefinition } from '../../common/tool.js';
import { META } from '../../../protocol/meta.js';
import { textResult, ToolError, userCancelled } from '../../common/result.js';
import { unifiedDiff } from '../../common/diff.js';
import { appendFact, readMemoryFile, sanitiseFact, type MemoryFileWriter } from '../memory-file.js';
import { tildify } from '../paths.js';

export const saveMemorySchema = z.object({
  fact: z
    .string()
    .describe('The fact to remember: one clear, self-contained statement (for example "prefers tabs over spaces").'),
});

export const saveMemoryAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

const DESCRIPTION =
  'Saves a fact to your long-term memory (the global GEMINI.md file), so it is loaded into future sessions. ' +
  'Use it when the user explicitly asks you to remember something, or states a short, durable fact about ' +
  'themselves, their preferences or their environment that will matter later. Do not use it for context that ' +
  'only matters in this session, nor for long or complex text. If you are unsure whether a fact is worth ' +
  'keeping, ask the user: "Should I remember that for you?"';

export interface SaveMemoryDeps {
  writer: MemoryFileWriter;
  home: string;
  /** Called after every successful write (resource update notifications). */
  onSaved: () => void;
}

function failure(message: string): ToolError {
  return new ToolError(
    JSON.stringify({ success: false, error: `Failed to save memory. Detail: ${message}` }),
    'memory_tool_execution_error',
    `Error saving memory: ${message}`,
  );
}

export function createSaveMemoryTool(deps: SaveMemoryDeps): ToolDefinition {
  const file = deps.writer.file;
  return defineTool({
    name: 'save_memory',
    title: 'SaveMemory',
    description: DESCRIPTION,
    inputSchema: saveMemorySchema,
    annotations: saveMemoryAnnotations,
    meta: { [META.confirms]: true },
    handler: async (args, ctx) => {
      const fact = sanitiseFact(args.fact);
      // Blank, only bullets or only brackets: nothing left after sanitising.
      if (!fact.trim()) {
        throw new ToolError('Parameter "fact" must be a non-empty string.', 'invalid_tool_params');
      }
      let current: { content: string; exists: boolean };
      try {
        current = await readMemoryFile(file);
      } catch (err) {
        throw failure((err as Error).message);
      }
      const proposed = appendFact(current.content, fact);
      const title = `Confirm Memory Save: ${tildify(file, deps.home)}`;
      const fileDiff = unifiedDiff(basename(file), current.content, proposed);
      const outcome = await ctx.confirm(
        {
          kind: 'edit',
          title,
          filePath: file,
          fileDiff,
          originalContent: current.exists ? current.content : null,
          newContent: proposed,
          isNewFile: !current.exists,
        },
        `${title}\n\n${fileDiff}`,
      );
      if (outcome.decision === 'cancel' || ctx.signal.aborted) throw userCancelled();
      try {
        // The file is re-read under the lock: a save that finished meanwhile is kept, not overwritten.
        if (outcome.decision === 'modify') await deps.writer.update(() => outcome.content);
        else await deps.writer.update((latest) => appendFact(latest, fact));
      } catch (err) {
        throw failure((err as Error).message);
      }
      deps.onSaved();
      if (outcome.decision === 'modify') {
        const message = "Okay, I've updated the memory file with your modifications.";
        return textResult(JSON.stringify({ success: true, message }), message);
      }
      const message = `Okay, I've remembered that: "${fact}"`;
      return textResult(JSON.stringify({ success: true, message }), message);
    },
  });
}
