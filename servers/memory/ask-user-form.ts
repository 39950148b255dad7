/**
 * Gemini CLI 0.61's `ask_user` questions as one MCP form, and the form's answers back in 0.61's shape
 * (`{ answers: { "<question index>": "text" } }`), so any MCP client that shows forms can answer them.
 * Pure: no I/O.
 */

export type QuestionType = 'choice' | 'text' | 'yesno';

export interface Question {
  question: string;
  header?: string;
  type?: QuestionType;
  options?: { label: string; description?: string }[];
  multiSelect?: boolean;
  placeholder?: string;
}

/**
 * Form keys: `q<index>` for a question, `q<index>_other` for the free text that goes with a choice or yes/no
 * question (0.61's automatic "Other" option). Not bare numbers: a JSON object lists integer keys first, which
 * would move every "Other" field after all the questions.
 */
const questionKey = (i: number) => `q${i}`;
const otherKey = (i: number) => `q${i}_other`;

/** 0.61 offers Yes and No for a yes/no question. */
const YES_NO = [
  { label: 'Yes', description: '' },
  { label: 'No', description: '' },
];

function choicesOf(q: Question): { label: string; description?: string }[] {
  return q.type === 'yesno' ? YES_NO : (q.options ?? []);
}

type Schema = Record<string, unknown>;

/** One question's fields: the choice itself (one or many) plus "Other", or a single text field. */
function fieldsOf(q: Question, i: number): [string, Schema][] {
  const title = q.header?.trim() || `Q${i}`;
  if (q.type === 'text') {
    const description = q.placeholder ? `${q.question}\n(${q.placeholder})` : q.question;
    return [[questionKey(i), { type: 'string', title, description }]];
  }
  const options = choicesOf(q).map((o) => ({
    const: o.label,
    title: o.description ? `${o.label} — ${o.description}` : o.label,
  }));
  const multi = q.type !== 'yesno' && q.multiSelect === true;
  const choice: Schema = multi
    ? { type: 'array', title, description: q.question, items: { anyOf: options } }
    : { type: 'string', title, description: q.question, oneOf: options };
  const other: Schema = {
    type: 'string',
    title: `${title}: other`,
    description: q.placeholder ?? 'Your own answer, if none of the choices fits.',
  };
  return [
    [questionKey(i), choice],
    [otherKey(i), other],
  ];
}

/** The form for all questions; nothing is required, since 0.61 lets the user skip a question. */
export function questionsForm(questions: Question[]): { message: string; requestedSchema: Schema } {
  const properties = Object.fromEntries(questions.flatMap((q, i) => fieldsOf(q, i)));
  const message = questions.length === 1 ? questions[0]!.question : `Please answer ${questions.length} questions.`;
  return { message, requestedSchema: { type: 'object', properties } };
}

const words = (v: unknown): string[] => {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
};

/**
 * The answers as 0.61 gives them: each answered question's chosen labels and own text joined with ", "
 * (what 0.61's dialog sends), keyed by the question's index; an unanswered question is left out.
 */
export function answersOf(questions: Question[], content: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  questions.forEach((_q, i) => {
    const parts = [...words(content?.[questionKey(i)]), ...words(content?.[otherKey(i)])]
      .map((w) => w.trim())
      .filter(Boolean);
    if (parts.length) out[String(i)] = parts.join(', ');
  });
  return out;
}

/** 0.61's display of the answers: the question's header (or `Q<n>`), an arrow and the answer. */
export function answersDisplay(questions: Question[], answers: Record<string, string>): string {
  const entries = Object.entries(answers);
  if (!entries.length) return 'User submitted without answering questions.';
  const lines = entries.map(([index, answer]) => {
    const prefix = `  ${questions[Number(index)]?.header ?? `Q${index}`} → `;
    return prefix + answer.split('\n').join(`\n${' '.repeat(prefix.length)}`);
  });
  return `User answered:\n${lines.join('\n')}`;
}
