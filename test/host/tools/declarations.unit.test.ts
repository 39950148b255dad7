import { describe, expect, it } from 'vitest';
import { checkedDeclaration, schemaProblem } from '../../../host/tools/declarations.js';

const nested = (levels: number): Record<string, unknown> => {
  let s: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) s = { type: 'object', properties: { a: s } };
  return s;
};

describe('checkedDeclaration', () => {
  it('drops $schema at every level and the host-only parameters, leaving the input untouched', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        path: { type: 'string' },
        modified_by_user: { type: 'boolean' },
        opts: { $schema: 'x', type: 'object', properties: { n: { type: 'number' } } },
        list: { type: 'array', items: [{ $schema: 'y', type: 'string' }] },
      },
      required: ['path', 'modified_by_user'],
    };
    const before = structuredClone(schema);
    const { declaration, problem } = checkedDeclaration('fs__read', 'Reads.', schema);
    expect(problem).toBeUndefined();
    expect(declaration).toEqual({
      name: 'fs__read',
      description: 'Reads.',
      parametersJsonSchema: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          opts: { type: 'object', properties: { n: { type: 'number' } } },
          list: { type: 'array', items: [{ type: 'string' }] },
        },
        required: ['path'],
      },
    });
    expect(schema).toEqual(before);
  });

  it('keeps a JSON __proto__ key as data, as the clone it replaces did', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"number"}}}');
    const copy = checkedDeclaration('t', '', schema).declaration.parametersJsonSchema as Record<string, unknown>;
    expect(JSON.stringify(copy)).toBe(JSON.stringify(structuredClone(schema)));
  });

  it('defaults a schema without a type to an object', () => {
    expect(checkedDeclaration('t', '', {}).declaration.parametersJsonSchema).toEqual({ type: 'object' });
  });

  it('names the same problems as schemaProblem, and only those', () => {
    const cases: Record<string, unknown>[] = [
      nested(10),
      // Each level is two deep (properties, then the property): 63 passes, 65 does not.
      nested(31),
      nested(32),
      { type: 'object', properties: { self: { $ref: '#' } } },
      { type: 'object', $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } } },
      { type: 'object', definitions: { a: { $ref: '#/definitions/b' }, b: { type: 'string' } } },
      { type: 'object', definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } } },
    ];
    const problems = cases.map((c) => checkedDeclaration('t', '', c).problem);
    expect(problems).toEqual(cases.map((c) => schemaProblem(c)));
    expect(problems.filter(Boolean)).toHaveLength(4);
  });
});
