import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from '../../../host/scheduler/validate.js';

const schema = {
  type: 'object',
  properties: { path: { type: 'string' }, limit: { type: 'number' } },
  required: ['path'],
};

describe('ArgumentValidator: arguments checked against the tool schema before any call', () => {
  it('must be readied first, then passes valid arguments and names what is wrong', async () => {
    const v = new ArgumentValidator();
    // Too early is a programming error, and does not spoil the schema for later calls.
    expect(() => v.validate(schema, { path: 'a' })).toThrow('ready() was not awaited');
    await v.ready();
    expect(v.validate(schema, { path: 'a', limit: 3 })).toBeUndefined();
    expect(v.validate(schema, {})).toBe("params must have required property 'path'");
    expect(v.validate(schema, { path: 1 })).toBe('params/path must be string');
    expect(v.validate(undefined, { anything: true })).toBeUndefined();
  });

  it('reads 2020-12 schemas, and lets unknown keywords and formats of quirky servers pass', async () => {
    const v = new ArgumentValidator();
    await v.ready();
    const modern = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema, prefixItems: [] };
    expect(v.validate(modern, {})).toBe("params must have required property 'path'");
    const quirky = { ...schema, 'x-vendor': 1, properties: { path: { type: 'string', format: 'no-such-format' } } };
    expect(v.validate(quirky, { path: 'a' })).toBeUndefined();
  });

  it('a schema that cannot compile fails the call with a clear text instead of throwing', async () => {
    const v = new ArgumentValidator();
    await v.ready();
    expect(v.validate({ type: 'no-such-type' }, {})).toMatch(/^Tool schema could not be compiled: /);
  });
});
