import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import { answeredName, type CallRecord } from './call-record.js';
import { type ConvertedResult, functionResponseParts } from './convert-result.js';
import { effectiveThreshold, truncateToolOutput } from './truncate-output.js';
import type { ToolCallResponseInfo, ToolRef } from './types.js';

export interface ModelResponseOptions {
  /** The model-facing character limit (settings); a tool's own limit may lower it. */
  truncateThreshold?: number;
  /** Where a cut output's whole text is saved. */
  projectTempDir: string;
  /** Text appended after the output (just-in-time context), '' when none. */
  extra: string;
}

/**
 * What the model (and the card) get for a successful call: the output cut to the limit with a file holding
 * the whole text, what else was appended, and the server's display and `_meta`.
 */
export async function modelResponse(
  call: CallRecord,
  tool: ToolRef,
  result: CallToolResult,
  converted: ConvertedResult,
  o: ModelResponseOptions,
): Promise<ToolCallResponseInfo> {
  const { callId } = call.request;
  // What the user typed is shown to the user only: nothing to cut for the model. Our own servers say when
  // they cut the text themselves (they hold the whole output): cut once, and link to their file.
  const cutByServer = tool.builtIn ? result._meta?.[META.outputFile] : undefined;
  const threshold =
    call.request.typedByUser || typeof cutByServer === 'string'
      ? 0
      : effectiveThreshold(o.truncateThreshold, tool.maxResultSizeChars);
  const cut = await truncateToolOutput(converted.text, {
    threshold,
    projectTempDir: o.projectTempDir,
    exposedName: tool.exposedName,
    callId,
  });
  return {
    callId,
    responseParts: functionResponseParts(callId, answeredName(call.request), {
      output: cut.text + o.extra,
      media: converted.mediaParts,
    }),
    responseText: cut.text + o.extra,
    resultDisplay: converted.display,
    ...(cut.file ? { outputFile: cut.file } : typeof cutByServer === 'string' ? { outputFile: cutByServer } : {}),
    ...(result._meta ? { meta: result._meta as Record<string, unknown> } : {}),
  };
}
