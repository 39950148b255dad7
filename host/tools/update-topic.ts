import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import { hostToolEntry, type RegisteredTool } from './registered-tool.js';

/**
 * Gemini CLI 0.61's `update_topic`, offered in every session: the model names the chapter it is in and its
 * intent. It changes only the session's own note of the topic (a host tool: nothing runs, nothing is
 * written), and answers the model with 0.61's words, so recordings that call it replay the same.
 */
export const UPDATE_TOPIC = 'update_topic';

export interface TopicState {
  topic?: string;
  intent?: string;
}

export function updateTopicEntry(): RegisteredTool {
  return hostToolEntry(
    UPDATE_TOPIC,
    'Update Topic',
    'Manages your narrative flow. Include `title` and `summary` only when starting a new Chapter (logical phase) or shifting strategic intent.',
    {
      type: 'object',
      properties: {
        title: { type: 'string', description: 'The title of the new topic or chapter.' },
        summary: {
          type: 'string',
          description:
            '(OPTIONAL) A detailed summary (5-10 sentences) covering both the work completed in the previous topic and the strategic intent of the new topic. This is required when transitioning between topics to maintain continuity.',
        },
        strategic_intent: {
          type: 'string',
          description: 'A mandatory one-sentence statement of your immediate intent.',
        },
      },
      required: ['strategic_intent'],
    },
  );
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Records the topic and intent; the answer is 0.61's: the new topic with its summary, or the intent alone. */
export function updateTopic(state: TopicState, args: Record<string, unknown>): CallToolResult {
  const title = text(args.title)?.trim();
  const summary = text(args.summary);
  const intent = text(args.strategic_intent)?.trim();
  const isNew = !!title && title !== state.topic;
  if (title) state.topic = title;
  if (intent) state.intent = intent;
  const topic = state.topic ?? '...';
  const currentIntent = intent ?? state.intent ?? '...';
  let forModel: string;
  let display: string;
  if (isNew) {
    forModel = `Current topic: "${topic}"\nTopic summary: ${summary ?? '...'}`;
    display = `Topic: ${topic}\n${summary ?? '...'}`;
    if (intent) {
      forModel += `\n\nStrategic Intent: ${intent}`;
      display += `\nIntent: ${intent}`;
    }
  } else {
    forModel = `Strategic Intent: ${currentIntent}`;
    display = `Intent: ${currentIntent}`;
  }
  return { content: [{ type: 'text', text: forModel }], _meta: { [META.display]: display } };
}
