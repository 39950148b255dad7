import { describe, expect, it } from 'vitest';
import { lazySchemaValidator } from '../../protocol/lazy-schema-validator.js';

describe('lazySchemaValidator', () => {
  const schema = {
    type: 'object' as const,
    properties: { n: { type: 'number' as const } },
    required: ['n'],
  };

  it('validates as the SDK validator does', () => {
    const check = lazySchemaValidator().getValidator<{ n: number }>(schema);
    expect(check({ n: 1 })).toEqual({ valid: true, data: { n: 1 }, errorMessage: undefined });
    const bad = check({ n: 'one' });
    expect(bad.valid).toBe(false);
    expect(bad.errorMessage).toMatch(/must be number/);
    // Compiled once, then reused.
    expect(check({}).valid).toBe(false);
  });

  it('compiles a schema only when a value is first checked against it', () => {
    const v = lazySchemaValidator();
    const broken = { type: 'object' as const, properties: { x: { $ref: '#/definitions/missing' } } };
    const check = v.getValidator(broken);
    expect(() => check({ x: 1 })).toThrow(/can't resolve reference/);
    // Another schema of the same validator is unaffected.
    expect(v.getValidator(schema)({ n: 2 }).valid).toBe(true);
  });

  it('keeps schemas of different validators apart, even under one $id', () => {
    const a = lazySchemaValidator().getValidator({ $id: 'https://example.test/shared.json', type: 'string' } as never);
    const b = lazySchemaValidator().getValidator({ $id: 'https://example.test/shared.json', type: 'number' } as never);
    expect(a('text').valid).toBe(true);
    expect(b('text').valid).toBe(false);
    expect(b(3).valid).toBe(true);
  });
});
