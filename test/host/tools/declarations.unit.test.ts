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

  it('names what the API would refuse, and only that', () => {
    const cases: [Record<string, unknown>, RegExp | undefined][] = [
      [nested(10), undefined],
      // Each level is two deep (properties, then the property): 63 passes, 65 does not.
      [nested(31), undefined],
      [nested(32), /nested deeper than 64 levels/],
      [{ type: 'object', properties: { self: { $ref: '#' } } }, /refers to itself/],
      [
        { type: 'object', $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } } },
        /\$ref cycle through "n"/,
      ],
      [{ type: 'object', definitions: { a: { $ref: '#/definitions/b' }, b: { type: 'string' } } }, undefined],
      [
        { type: 'object', definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } } },
        /\$ref cycle through "a"/,
      ],
    ];
    for (const [schema, expected] of cases) {
      const problem = checkedDeclaration('t', '', schema).problem;
      if (expected) expect(problem).toMatch(expected);
      else expect(problem).toBeUndefined();
      expect(schemaProblem(schema)).toBe(problem);
    }
  });
});
