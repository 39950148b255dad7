import { describe, expect, it } from 'vitest';
import { legacyToJsonSchema } from '../../discovery-bridge/legacy-schema.js';

describe('legacyToJsonSchema', () => {
  it('lower-cases types recursively and converts int64 strings', () => {
    expect(
      legacyToJsonSchema({
        type: 'OBJECT',
        properties: {
          path: { type: 'STRING', description: 'A path.' },
          tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: '1', maxItems: '3' },
          n: { type: 'NUMBER', minimum: '0.5', maximum: 10 },
        },
        required: ['path'],
        propertyOrdering: ['path', 'tags', 'n'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'A path.' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        n: { type: 'number', minimum: 0.5, maximum: 10 },
      },
      required: ['path'],
    });
  });

  it('turns nullable into a null type member, also in enums', () => {
    expect(legacyToJsonSchema({ type: 'INTEGER', nullable: true })).toEqual({ type: ['integer', 'null'] });
    expect(legacyToJsonSchema({ type: 'STRING', format: 'enum', enum: ['a', 'b'], nullable: true })).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
    expect(legacyToJsonSchema({ anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true })).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }],
    });
    expect(legacyToJsonSchema({ type: 'STRING', nullable: false })).toEqual({ type: 'string' });
  });

  it('maps example to examples and drops unspecified types', () => {
    expect(legacyToJsonSchema({ type: 'TYPE_UNSPECIFIED', example: 'x', description: 'd' })).toEqual({
      description: 'd',
      examples: ['x'],
    });
  });

  it('passes JSON Schema keys and formats through and converts nested sub-schemas', () => {
    expect(
      legacyToJsonSchema({
        type: 'object',
        additionalProperties: { type: 'BOOLEAN' },
        properties: { when: { type: 'STRING', format: 'date-time', pattern: '^2' } },
      }),
    ).toEqual({
      type: 'object',
      additionalProperties: { type: 'boolean' },
      properties: { when: { type: 'string', format: 'date-time', pattern: '^2' } },
    });
  });

  it('returns an empty schema for non-objects and leaves malformed numbers alone', () => {
    expect(legacyToJsonSchema('OBJECT')).toEqual({});
    expect(legacyToJsonSchema([{ type: 'STRING' }])).toEqual({});
    expect(legacyToJsonSchema({ type: 'STRING', maxLength: 'ten' })).toEqual({ type: 'string', maxLength: 'ten' });
  });
});
