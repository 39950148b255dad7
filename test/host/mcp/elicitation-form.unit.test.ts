import { describe, expect, it } from 'vitest';
import {
  buildContent,
  type FormField,
  fieldProblem,
  headlessFormElicitor,
  initialText,
  parseForm,
  parseValue,
  withDefaults,
} from '../../../host/mcp/elicitation-form.js';

const field = (over: Partial<FormField>): FormField => ({
  key: 'k',
  label: 'k',
  kind: 'string',
  required: false,
  ...over,
});

describe('parseForm', () => {
  it("turns a flat schema into fields, in the server's order, with their limits", () => {
    const form = parseForm('Sign up', {
      type: 'object',
      properties: {
        email: { type: 'string', title: 'E-mail', format: 'email', description: 'work address' },
        age: { type: 'integer', minimum: 18, maximum: Number.POSITIVE_INFINITY },
        ok: { type: 'boolean', default: true },
        name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
      },
      required: ['email', 'age'],
    });
    expect(form.message).toBe('Sign up');
    expect(form.fields.map((f) => [f.key, f.label, f.kind, f.required])).toEqual([
      ['email', 'E-mail', 'string', true],
      ['age', 'age', 'integer', true],
      ['ok', 'ok', 'boolean', false],
      ['name', 'name', 'string', false],
    ]);
    expect(form.fields[0]).toMatchObject({ format: 'email', description: 'work address' });
    // A limit that is not a finite number is dropped.
    expect(form.fields[1]).toMatchObject({ minimum: 18, maximum: undefined });
    expect(form.fields[3]).toMatchObject({ minLength: 2, maxLength: 5, pattern: '^[a-z]+$' });
  });

  it('enums: plain with enumNames, oneOf/anyOf const + title, and multi-select arrays', () => {
    const form = parseForm('', {
      properties: {
        size: { type: 'string', enum: ['s', 'm', 7], enumNames: ['Small'] },
        colour: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g' }, { title: 'no const' }] },
        tags: { type: 'array', items: { anyOf: [{ const: 'a', title: 'Alpha' }] }, minItems: 1, maxItems: 2 },
      },
    });
    expect(form.fields[0]).toMatchObject({
      kind: 'enum',
      options: [
        { value: 's', label: 'Small' },
        { value: 'm', label: 'm' },
      ],
    });
    expect(form.fields[1]?.options).toEqual([
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'g' },
    ]);
    expect(form.fields[2]).toMatchObject({
      kind: 'multi',
      options: [{ value: 'a', label: 'Alpha' }],
      minItems: 1,
      maxItems: 2,
    });
  });

  it('a malformed schema gives no fields rather than an error', () => {
    for (const schema of [null, 'x', 3, { properties: 'x' }, { properties: null }])
      expect(parseForm('m', schema).fields).toEqual([]);
    expect(parseForm('m', { properties: { a: null }, required: 'a' }).fields).toEqual([
      {
        key: 'a',
        label: 'a',
        description: undefined,
        required: false,
        default: undefined,
        kind: 'string',
        format: undefined,
        minLength: undefined,
        maxLength: undefined,
        pattern: undefined,
      },
    ]);
  });
});

describe('parseValue', () => {
  it('booleans take yes/no words, in any case', () => {
    const f = field({ kind: 'boolean' });
    expect(['Y', 'yes', 'TRUE', 'on', '1'].map((t) => parseValue(f, t))).toEqual(
      Array(5).fill({ ok: true, value: true }),
    );
    expect(parseValue(f, ' off ')).toEqual({ ok: true, value: false });
    expect(parseValue(f, 'maybe')).toEqual({ ok: false, error: 'must be yes or no' });
  });

  it('numbers: finite, whole for integers, within the bounds', () => {
    const i = field({ kind: 'integer', minimum: 1, maximum: 10 });
    expect(parseValue(i, ' 7 ')).toEqual({ ok: true, value: 7 });
    expect(parseValue(i, '7.5')).toEqual({ ok: false, error: 'must be a whole number' });
    expect(parseValue(i, '0')).toEqual({ ok: false, error: 'must be at least 1' });
    expect(parseValue(i, '11')).toEqual({ ok: false, error: 'must be at most 10' });
    for (const t of ['abc', 'Infinity', 'NaN'])
      expect(parseValue(i, t)).toEqual({ ok: false, error: 'must be a number' });
    expect(parseValue(field({ kind: 'number' }), '1e3')).toEqual({ ok: true, value: 1000 });
  });

  it('an enum takes the value, the label (any case) or the 1-based number', () => {
    const f = field({
      kind: 'enum',
      options: [
        { value: 'r', label: 'Red' },
        { value: 'g', label: 'Green' },
      ],
    });
    expect([parseValue(f, 'r'), parseValue(f, 'GREEN'), parseValue(f, '2')]).toEqual([
      { ok: true, value: 'r' },
      { ok: true, value: 'g' },
      { ok: true, value: 'g' },
    ]);
    expect(parseValue(f, '3')).toEqual({ ok: false, error: 'must be one of Red, Green' });
  });

  it('multi-select: comma list, duplicates once, item count bounds, an unknown word named', () => {
    const f = field({
      kind: 'multi',
      options: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
        { value: 'c', label: 'C' },
      ],
      minItems: 1,
      maxItems: 2,
    });
    expect(parseValue(f, 'a, B, a')).toEqual({ ok: true, value: ['a', 'b'] });
    expect(parseValue(f, 'a,b,c')).toEqual({ ok: false, error: 'pick at most 2' });
    expect(parseValue(f, ' , ')).toEqual({ ok: false, error: 'pick at least 1' });
    expect(parseValue(f, 'a, z')).toEqual({ ok: false, error: '"z" is not one of A, B, C' });
  });

  it('strings: length as typed, formats, and the pattern', () => {
    expect(parseValue(field({ minLength: 3 }), 'ab')).toEqual({ ok: false, error: 'must be at least 3 characters' });
    expect(parseValue(field({ maxLength: 3 }), 'abcd')).toEqual({ ok: false, error: 'must be at most 3 characters' });
    expect(parseValue(field({ format: 'email' }), 'a@b.co')).toEqual({ ok: true, value: 'a@b.co' });
    expect(parseValue(field({ format: 'email' }), 'a@b')).toEqual({ ok: false, error: 'must be an e-mail address' });
    expect(parseValue(field({ format: 'uri' }), 'not a uri').ok).toBe(false);
    expect(parseValue(field({ format: 'date' }), '2024-02-29').ok).toBe(true);
    expect(parseValue(field({ format: 'date' }), '2024-02-30').ok).toBe(false);
    expect(parseValue(field({ format: 'date' }), '2023-02-29').ok).toBe(false);
    expect(parseValue(field({ format: 'date-time' }), '2024-04-31T10:00:00Z').ok).toBe(false);
    expect(parseValue(field({ format: 'date' }), '2024-13-01')).toEqual({
      ok: false,
      error: 'must be a date as YYYY-MM-DD',
    });
    expect(parseValue(field({ format: 'date-time' }), '2024-02-29T10:00:00Z').ok).toBe(true);
    expect(parseValue(field({ format: 'date-time' }), '2024-02-29').ok).toBe(false);
    expect(parseValue(field({ pattern: '^[a-z]+$' }), 'abc')).toEqual({ ok: true, value: 'abc' });
    expect(parseValue(field({ pattern: '^[a-z]+$' }), 'ab1')).toEqual({ ok: false, error: 'must match ^[a-z]+$' });
  });

  it("a server's catastrophic pattern cannot stall the form", () => {
    // RE2 answers at once; a backtracking engine would not finish before the test's timeout.
    const r = parseValue(field({ pattern: '^(a+)+$' }), `${'a'.repeat(40)}!`);
    expect(r).toEqual({ ok: false, error: 'must match ^(a+)+$' });
  });

  it('a pattern RE2 cannot run (a back-reference) is not held against the user', () => {
    expect(parseValue(field({ pattern: '^(a)\\1$' }), 'xyz')).toEqual({ ok: true, value: 'xyz' });
  });
});

describe('fieldProblem, buildContent, withDefaults', () => {
  const form = parseForm('f', {
    properties: {
      name: { type: 'string' },
      count: { type: 'integer', default: 3 },
      colour: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'], default: 'g' },
      note: { type: 'string' },
    },
    required: ['name', 'count'],
  });

  it('required without a default is a problem when empty; a string of spaces is a value', () => {
    const [name, count] = form.fields;
    expect(fieldProblem(name!, '')).toBe('is required');
    expect(fieldProblem(name!, '  ')).toBeUndefined();
    expect(fieldProblem(count!, ' ')).toBeUndefined();
    expect(fieldProblem(count!, 'x')).toBe('must be a number');
  });

  it('accepts with parsed values; empty fields get their defaults or are left out', () => {
    expect(buildContent(form, { name: 'Ann', count: '', colour: '', note: '' })).toEqual({
      ok: true,
      content: { name: 'Ann', count: 3, colour: 'g' },
    });
  });

  it('collects every error by field', () => {
    expect(buildContent(form, { count: 'x', colour: 'blue' })).toEqual({
      ok: false,
      errors: { name: 'is required', count: 'must be a number', colour: 'must be one of Red, Green' },
    });
  });

  it('initialText shows defaults as typed, enum values by label', () => {
    expect(form.fields.map(initialText)).toEqual(['', '3', 'Green', '']);
    const multi = field({ kind: 'multi', options: [{ value: 'a', label: 'Alpha' }], default: ['a', 'zz'] });
    expect(initialText(multi)).toBe('Alpha, zz');
  });

  it('withDefaults fills what an answer left out without changing the caller object', () => {
    const answer = { name: 'x' };
    expect(withDefaults(form, answer)).toEqual({ name: 'x', count: 3, colour: 'g' });
    expect(answer).toEqual({ name: 'x' });
  });
});

describe('headlessFormElicitor', () => {
  it('declines and says which server asked what (first line only)', async () => {
    const warnings: string[] = [];
    const e = headlessFormElicitor((m) => warnings.push(m));
    const answer = await e.fillForm(
      { server: 'crm', form: { message: 'Pick a customer\nmore detail', fields: [] } },
      new AbortController().signal,
    );
    expect(answer).toEqual({ action: 'decline' });
    expect(warnings).toEqual([
      'MCP server "crm" asked for input ("Pick a customer"); declined: a headless run cannot show forms.',
    ]);
  });
});
