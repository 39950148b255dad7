import { describe, expect, it } from 'vitest';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { startMemory } from './harness.js';

const NS = 'dev.gemini-mcp-cli';

const QUESTIONS = [
  {
    question: 'Which database?',
    header: 'Database',
    type: 'choice',
    options: [
      { label: 'Postgres', description: 'Relational' },
      { label: 'SQLite', description: 'One file' },
    ],
  },
  { question: 'What should the service be called?', header: 'Name', type: 'text', placeholder: 'e.g. api' },
  { question: 'Add tests?', header: 'Tests', type: 'yesno' },
  {
    question: 'Which targets?',
    header: 'Targets',
    type: 'choice',
    multiSelect: true,
    options: [
      { label: 'Linux', description: '' },
      { label: 'macOS', description: '' },
      { label: 'Windows', description: '' },
    ],
  },
];

type Form = ElicitRequest['params'] & { requestedSchema: { properties: Record<string, Record<string, unknown>> } };

describe('ask_user (memory server)', () => {
  it('asks every question in one form and answers the model as Gemini CLI 0.61 does', async () => {
    let asked: Form | undefined;
    const s = await startMemory(tempDir('ask-home-'), tempDir('ask-root-'), {
      elicit: (params) => {
        asked = params as Form;
        return {
          action: 'accept',
          content: {
            q0: 'SQLite',
            q1: 'billing',
            q2: 'No',
            q2_other: 'only smoke tests',
            q3: ['Linux', 'macOS'],
          },
        };
      },
    });
    const { tools } = await s.client.listTools();
    const tool = tools.find((t) => t.name === 'ask_user')!;
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(tool._meta?.[`${NS}/confirms`]).toBeUndefined();

    const r = await s.call('ask_user', { questions: QUESTIONS });
    expect(r.isError).toBeFalsy();
    expect(JSON.parse(textOf(r))).toEqual({
      answers: { '0': 'SQLite', '1': 'billing', '2': 'No, only smoke tests', '3': 'Linux, macOS' },
    });
    expect(r._meta?.[`${NS}/display`]).toBe(
      'User answered:\n  Database → SQLite\n  Name → billing\n  Tests → No, only smoke tests\n  Targets → Linux, macOS',
    );
    // The form: choices as titled options, "Other" as free text beside them, yes/no as Yes and No.
    const props = asked!.requestedSchema.properties;
    expect(Object.keys(props)).toEqual(['q0', 'q0_other', 'q1', 'q2', 'q2_other', 'q3', 'q3_other']);
    expect(props.q0).toMatchObject({
      type: 'string',
      title: 'Database',
      description: 'Which database?',
      oneOf: [
        { const: 'Postgres', title: 'Postgres — Relational' },
        { const: 'SQLite', title: 'SQLite — One file' },
      ],
    });
    expect(props.q0_other).toMatchObject({ type: 'string' });
    expect(props.q1).toMatchObject({ type: 'string', title: 'Name' });
    expect(props.q1_other).toBeUndefined();
    expect(props.q2).toMatchObject({ oneOf: [{ const: 'Yes' }, { const: 'No' }] });
    expect(props.q3).toMatchObject({
      type: 'array',
      items: { anyOf: [{ const: 'Linux' }, { const: 'macOS' }, { const: 'Windows' }] },
    });
  });

  it('answers a declined or cancelled form as 0.61 answers a dismissed question', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const s = await startMemory(tempDir('ask-home-'), tempDir('ask-root-'), { elicit: () => ({ action }) });
      const r = await s.call('ask_user', { questions: [QUESTIONS[1]] });
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toBe('User dismissed ask_user dialog without answering.');
    }
  });

  it('an empty submission leaves every answer out, as 0.61 does', async () => {
    const s = await startMemory(tempDir('ask-home-'), tempDir('ask-root-'), {
      elicit: () => ({ action: 'accept', content: { q1: '   ' } }),
    });
    const r = await s.call('ask_user', { questions: [QUESTIONS[0], QUESTIONS[1]] });
    expect(textOf(r)).toBe('{"answers":{}}');
    expect(r._meta?.[`${NS}/display`]).toBe('User submitted without answering questions.');
  });

  it('without elicitation in the client it fails at once: no user is available', async () => {
    const s = await startMemory(tempDir('ask-home-'), tempDir('ask-root-'));
    const r = await s.call('ask_user', { questions: [QUESTIONS[2]] });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('No user is available to answer ask_user');
  });

  it('a client that says nobody is there (decline marked noUser) gets the same error, not a dismissal', async () => {
    const s = await startMemory(tempDir('ask-home-'), tempDir('ask-root-'), {
      elicit: () => ({ action: 'decline', _meta: { [`${NS}/noUser`]: true } }),
    });
    const r = await s.call('ask_user', { questions: [QUESTIONS[2]] });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('No user is available to answer ask_user');
  });

  it("refuses a choice without 2-4 options with 0.61's message, before asking", async () => {
    let asked = false;
    const s = await startMemory(tempDir('ask-home-'), tempDir('ask-root-'), {
      elicit: () => {
        asked = true;
        return { action: 'cancel' };
      },
    });
    const r = await s.call('ask_user', {
      questions: [{ question: 'Which?', header: 'X', type: 'choice', options: [] }],
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Question 1: type='choice' requires 'options' array with 2-4 items.");
    expect(asked).toBe(false);
  });
});
