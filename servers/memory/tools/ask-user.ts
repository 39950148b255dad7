import * as z from 'zod';
import { META } from '../../../protocol/meta.js';
import { textResult, ToolError } from '../../common/result.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../../common/tool.js';
import { answersDisplay, answersOf, type Question, questionsForm } from '../ask-user-form.js';

/**
 * Gemini CLI 0.61's `ask_user`, with its name, parameters and answers: the questions become one MCP form
 * (elicitation), so whichever client shows forms (our chat, an editor, another MCP client) lets the user
 * answer. It lives in the memory server because that server holds what the user tells us.
 */

const option = z.object({
  label: z.string().describe('The display text for this option (1-5 words). Example: "OAuth 2.0"'),
  description: z.string().describe('Brief explanation of this option. Example: "Industry standard, supports SSO"'),
});

const question = z.object({
  question: z
    .string()
    .describe('The complete question to ask the user. Should be clear, specific, and end with a question mark.'),
  header: z
    .string()
    .describe(
      'Very short label displayed as a chip/tag. Use abbreviations: "Auth" not "Authentication", "Config" not "Configuration". Examples: "Auth method", "Library", "Approach", "Database".',
    ),
  type: z
    .enum(['choice', 'text', 'yesno'])
    .default('choice')
    .describe(
      "Question type: 'choice' (default) for multiple-choice with options, 'text' for free-form input, 'yesno' for Yes/No confirmation with optional 'Other' feedback.",
    ),
  options: z
    .array(option)
    .optional()
    .describe(
      "The selectable choices for 'choice' type questions. Provide 2-4 options. An 'Other' option is automatically added for 'choice' and 'yesno' types. Not needed for 'text' or 'yesno'.",
    ),
  multiSelect: z
    .boolean()
    .optional()
    .describe("Only applies when type='choice'. Set to true to allow selecting multiple options."),
  placeholder: z
    .string()
    .optional()
    .describe(
      "Hint text shown in the input field. For type='text', shown in the main input. For type='choice' and 'yesno', shown in the 'Other' custom input.",
    ),
});

export const askUserSchema = z.object({ questions: z.array(question).min(1).max(4) });

const DESCRIPTION =
  'Ask the user one or more questions to gather preferences, clarify requirements, or make decisions.';

/** 0.61's own checks, with its words: a choice needs 2-4 options, each with a label and a description. */
function invalid(questions: Question[]): string | undefined {
  for (const [i, q] of questions.entries()) {
    if (q.type === 'choice') {
      if (!q.options || q.options.length < 2)
        return `Question ${i + 1}: type='choice' requires 'options' array with 2-4 items.`;
      if (q.options.length > 4) return `Question ${i + 1}: 'options' array must have at most 4 items.`;
    }
    for (const [j, o] of (q.options ?? []).entries()) {
      if (!o.label.trim())
        return `Question ${i + 1}, option ${j + 1}: 'label' is required and must be a non-empty string.`;
    }
  }
  return undefined;
}

/** The model may write `\n` as two characters; 0.61 turns them into line breaks. */
const unescapeNewlines = (s: string) => s.replace(/\\r\\n/g, '\n').replace(/\\n/g, '\n');

function normalized(questions: z.infer<typeof askUserSchema>['questions']): Question[] {
  return questions.map((q) => ({
    ...q,
    question: unescapeNewlines(q.question),
    header: unescapeNewlines(q.header),
    placeholder: q.placeholder ? unescapeNewlines(q.placeholder) : undefined,
    options: q.options?.map((o) => ({
      label: unescapeNewlines(o.label),
      description: unescapeNewlines(o.description.trim()),
    })),
  }));
}

export const NO_USER_TEXT =
  'No user is available to answer ask_user: this client cannot show forms (a headless run or a client without MCP elicitation). Do not wait for an answer: decide with what you know, or say in your reply what you need from the user.';

const noUser = () => new ToolError(NO_USER_TEXT, 'execution_failed', 'No user is available to answer');

export function createAskUserTool(): ToolDefinition {
  return defineTool({
    name: 'ask_user',
    title: 'Ask User',
    description: DESCRIPTION,
    inputSchema: askUserSchema,
    // Asking changes nothing: no confirmation, allowed in every approval mode.
    annotations: READ_ONLY,
    handler: async (args, ctx) => {
      const questions = normalized(args.questions);
      const bad = invalid(questions);
      if (bad) throw new ToolError(bad, 'invalid_tool_params', '');
      if (!ctx.elicitForm) throw noUser();
      const form = questionsForm(questions);
      const answer = await ctx.elicitForm(form.message, form.requestedSchema);
      if (answer._meta?.[META.noUser] === true) throw noUser();
      if (answer.action !== 'accept') {
        return textResult('User dismissed ask_user dialog without answering.', 'User dismissed dialog');
      }
      const answers = answersOf(questions, answer.content);
      return textResult(JSON.stringify({ answers }), answersDisplay(questions, answers));
    },
  });
}
