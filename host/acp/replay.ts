import type * as acp from '@agentclientprotocol/sdk';
import type { Content } from '@google/genai';
import type { ToolLookup } from '../scheduler/executor.js';
import { CallPairing } from '../core/call-pairing.js';
import { latestTodos } from '../core/session-todos.js';
import { planUpdate } from './plan.js';
import { callResult, isHostMarker, isSnapshot, userWords } from '../core/transcript-rules.js';
import { toolKind, toolLocations, toolTitle } from './tool-calls.js';

/**
 * A stored transcript (what the chat showed: compression left out) as the updates a live session would
 * have sent: the user's own words, the model's answers and thoughts, and every tool call with how it
 * ended, in order, then the task list's plan. The markers the host wrote for the model (an interrupted turn, a summary's
 * acknowledgement) are not shown, and a call that was cancelled, denied or never finished is failed,
 * never completed (the rules the resumed chat follows, host/core/transcript-rules.ts). `session/load`
 * sends these before it answers, so the editor shows the conversation it continues.
 */
export function replayUpdates(transcript: Content[], tools: ToolLookup, cwd: string): acp.SessionUpdate[] {
  const out: acp.SessionUpdate[] = [];
  let callSeq = 0;
  let afterSnapshot = false;
  const pairing = new CallPairing<string>();
  const text = (sessionUpdate: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk', t: string) =>
    out.push({ sessionUpdate, content: { type: 'text', text: t } });
  for (const content of transcript) {
    if (content.role === 'user') {
      const words = userWords(content.parts ?? []);
      afterSnapshot = isSnapshot(words);
      if (words && !afterSnapshot) text('user_message_chunk', words);
    }
    for (const part of content.parts ?? []) {
      if (part.text !== undefined && part.text !== '' && content.role !== 'user') {
        if (part.thought) text('agent_thought_chunk', part.text);
        else if (!isHostMarker(part.text, afterSnapshot)) text('agent_message_chunk', part.text);
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
        pairing.call(part.functionCall, id);
        out.push({
          sessionUpdate: 'tool_call',
          toolCallId: id,
          title: toolTitle(name, args, cwd, tool),
          kind: toolKind(tool, name),
          status: 'pending',
          rawInput: args,
          locations: toolLocations(args, cwd),
        });
      } else if (part.functionResponse) {
        const callId = pairing.response(part.functionResponse);
        if (!callId) continue;
        const result = callResult(part);
        out.push({
          sessionUpdate: 'tool_call_update',
          toolCallId: callId,
          status: result.status === 'success' ? 'completed' : 'failed',
          content: result.text ? [{ type: 'content', content: { type: 'text', text: result.text } }] : [],
        });
      }
    }
  }
  // A call with no recorded response: the turn ended before it finished.
  for (const toolCallId of pairing.unanswered())
    out.push({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
  // The task list as the model last left it, so the editor's plan view continues too.
  const todos = latestTodos(transcript);
  if (todos) out.push(planUpdate(todos));
  return out;
}
