import type * as acp from '@agentclientprotocol/sdk';
import type { Content } from '@google/genai';
import type { ToolLookup } from '../scheduler/executor.js';
import { toolKind, toolLocations, toolTitle } from './tool-calls.js';

/** The text a function response carries for the user: its output, else its error, else the raw JSON. */
function responseText(response: Record<string, unknown> | undefined): { text: string; failed: boolean } {
  if (!response) return { text: '', failed: false };
  if (typeof response.error === 'string') return { text: response.error, failed: true };
  if (typeof response.output === 'string') return { text: response.output, failed: false };
  return { text: JSON.stringify(response), failed: false };
}

/**
 * A recorded history as the updates a live session would have sent: the user's prompts, the model's
 * answers and thoughts, and every tool call with its result, in order. `session/load` sends these before
 * it answers, so the editor shows the whole conversation it continues.
 */
export function replayUpdates(history: Content[], tools: ToolLookup, cwd: string): acp.SessionUpdate[] {
  const out: acp.SessionUpdate[] = [];
  let callSeq = 0;
  // Function responses name their call by id when the model gave one, else they pair up in order.
  const pending: { id: string; name: string }[] = [];
  for (const content of history) {
    for (const part of content.parts ?? []) {
      if (part.text !== undefined && part.text !== '') {
        const chunk = { content: { type: 'text' as const, text: part.text } };
        if (content.role === 'user') out.push({ sessionUpdate: 'user_message_chunk', ...chunk });
        else if (part.thought) out.push({ sessionUpdate: 'agent_thought_chunk', ...chunk });
        else out.push({ sessionUpdate: 'agent_message_chunk', ...chunk });
      } else if (part.inlineData?.data && part.inlineData.mimeType?.startsWith('image/')) {
        const image = { type: 'image' as const, data: part.inlineData.data, mimeType: part.inlineData.mimeType };
        out.push({
          sessionUpdate: content.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk',
          content: image,
        });
      } else if (part.functionCall) {
        const name = part.functionCall.name ?? 'tool';
        const id = `replay-${++callSeq}-${part.functionCall.id ?? name}`;
        const args = (part.functionCall.args ?? {}) as Record<string, unknown>;
        const tool = tools.get(name);
        pending.push({ id, name });
        out.push({
          sessionUpdate: 'tool_call',
          toolCallId: id,
          title: toolTitle(name, args, tool),
          kind: toolKind(tool, name),
          status: 'pending',
          rawInput: args,
          locations: toolLocations(args, cwd),
        });
      } else if (part.functionResponse) {
        const idx = pending.findIndex((p) => p.name === part.functionResponse!.name);
        const call = pending.splice(idx >= 0 ? idx : 0, 1)[0];
        if (!call) continue;
        const r = responseText(part.functionResponse.response as Record<string, unknown> | undefined);
        out.push({
          sessionUpdate: 'tool_call_update',
          toolCallId: call.id,
          status: r.failed ? 'failed' : 'completed',
          content: r.text ? [{ type: 'content', content: { type: 'text', text: r.text } }] : [],
        });
      }
    }
  }
  return out;
}
