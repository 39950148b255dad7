import { describe, expect, it } from 'vitest';
import { buildContent, parseForm } from '../../../host/mcp/elicitation-form.js';
import { answersDisplay, answersOf, type Question, questionsForm } from '../../../servers/memory/ask-user-form.js';

const questions: Question[] = [
  {
    question: 'Which database?',
    header: 'DB',
    type: 'choice',
    options: [{ label: 'Postgres', description: 'relational' }, { label: 'Redis' }],
  },
  { question: 'Which targets?', type: 'choice', multiSelect: true, options: [{ label: 'linux' }, { label: 'mac' }] },
  { question: 'Proceed?', header: 'Go', type: 'yesno', multiSelect: true },
  { question: 'Project name?', header: 'Name', type: 'text', placeholder: 'my-app' },
];

describe('questionsForm', () => {
  const form = questionsForm(questions);

  it('one field per question plus an "Other" field for choices, keyed q<i> and q<i>_other, in order', () => {
    expect(Object.keys(form.requestedSchema.properties as object)).toEqual([
      'q0',
      'q0_other',
      'q1',
      'q1_other',
      'q2',
      'q2_other',
      'q3',
    ]);
    expect(form.message).toBe('Please answer 4 questions.');
    expect(form.requestedSchema.required).toBeUndefined();
  });

  it('choices as oneOf/anyOf with labels and descriptions; yes/no is never multi-select', () => {
    const p = form.requestedSchema.properties as Record<string, Record<string, unknown>>;
    expect(p.q0).toEqual({
      type: 'string',
      title: 'DB',
      description: 'Which database?',
      oneOf: [
        { const: 'Postgres', title: 'Postgres — relational' },
        { const: 'Redis', title: 'Redis' },
      ],
    });
    expect(p.q1).toMatchObject({
      type: 'array',
      title: 'Q1',
      items: { anyOf: [{ const: 'linux' }, { const: 'mac' }] },
    });
    expect(p.q2).toMatchObject({ type: 'string', oneOf: [{ const: 'Yes' }, { const: 'No' }] });
    expect(p.q3).toEqual({ type: 'string', title: 'Name', description: 'Project name?\n(my-app)' });
    expect(p.q0_other).toEqual({
      type: 'string',
      title: 'DB: other',
      description: 'Your own answer, if none of the choices fits.',
    });
  });

  it('a single question is its own message', () => {
    expect(questionsForm([questions[3]!]).message).toBe('Project name?');
  });

  it('round trip: the host form reads it, the typed answers come back in Gemini CLI shape', () => {
    const hostForm = parseForm(form.message, form.requestedSchema);
    const built = buildContent(hostForm, {
      q0: '2',
      q0_other: '',
      q1: 'linux, MAC',
      q2: 'yes',
      q2_other: 'after lunch',
      q3: 'demo',
    });
    expect(built.ok).toBe(true);
    const answers = answersOf(questions, built.ok ? built.content : {});
    expect(answers).toEqual({ 0: 'Redis', 1: 'linux, mac', 2: 'Yes, after lunch', 3: 'demo' });
  });
});

describe('answersOf and answersDisplay', () => {
  it('unanswered and blank questions are left out; non-string values are ignored', () => {
    expect(answersOf(questions, { q0: '  ', q1: ['linux', 3, ' '], q3: 7, q0_other: 'SQLite' })).toEqual({
      0: 'SQLite',
      1: 'linux',
    });
    expect(answersOf(questions, undefined)).toEqual({});
  });

  it("0.61's display: header or Q<n>, an arrow, continuation lines indented", () => {
    expect(answersDisplay(questions, { 0: 'Redis', 1: 'linux\nand mac' })).toBe(
      'User answered:\n  DB → Redis\n  Q1 → linux\n       and mac',
    );
    expect(answersDisplay(questions, {})).toBe('User submitted without answering questions.');
  });
});
