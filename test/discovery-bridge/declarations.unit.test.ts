import { describe, expect, it } from 'vitest';
import { NOT_AN_ARRAY, parseDeclarations } from '../../discovery-bridge/declarations.js';
import { createArgsValidator } from '../../discovery-bridge/validate-args.js';
import { createStderrLogger } from '../../servers/common/logger.js';

describe('parseDeclarations', () => {
  it('prefers parametersJsonSchema over parameters', () => {
    const { tools } = parseDeclarations(
      JSON.stringify([
        { name: 't', parametersJsonSchema: { type: 'object', properties: { a: {} } }, parameters: { type: 'OBJECT' } },
      ]),
    );
    expect(tools[0].inputSchema).toEqual({ type: 'object', properties: { a: {} } });
  });

  it('publishes an object schema for unusable schemas and says why', () => {
    const { tools, warnings } = parseDeclarations(
      JSON.stringify([
        { name: 'arr', parametersJsonSchema: [{ type: 'object' }] },
        { name: 'str', parametersJsonSchema: { type: 'string' } },
      ]),
    );
    expect(tools.map((t) => t.inputSchema)).toEqual([{ type: 'object' }, { type: 'object' }]);
    expect(warnings).toEqual([
      'tool "arr": its parameter schema is not an object; it takes no declared parameters',
      'tool "str": its parameter schema has type "string", but tool arguments are an object; replaced by {"type":"object"}',
    ]);
  });

  it('keeps the first of duplicate names and trims surrounding whitespace of the output', () => {
    const { tools, warnings } = parseDeclarations(
      `\n  ${JSON.stringify([
        { name: 'x', description: '1' },
        { name: 'x', description: '2' },
      ])}\n\n`,
    );
    expect(tools).toEqual([{ name: 'x', description: '1', inputSchema: { type: 'object' } }]);
    expect(warnings).toEqual(['duplicate tool "x": the first declaration wins']);
  });

  it.each(['', 'null', '"[]"', '{"name":"x"}', '[1,'])('rejects %j with the reference message', (text) => {
    expect(() => parseDeclarations(text)).toThrow(NOT_AN_ARRAY);
  });
});

describe('argument validation', () => {
  const validate = createArgsValidator(createStderrLogger('test'));
  it('checks draft-07 and 2020-12 schemas and lets uncompilable ones through', () => {
    const tool = (inputSchema: Record<string, unknown>) => ({
      name: 't',
      description: '',
      inputSchema: { ...inputSchema, type: 'object' as const },
    });
    const draft07 = tool({ properties: { n: { type: 'integer' } }, required: ['n'] });
    expect(validate(draft07, { n: 1 })).toBeUndefined();
    expect(validate(draft07, {})).toBe("params must have required property 'n'");
    const draft2020 = tool({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { str: { type: 'string' } },
      properties: { s: { $ref: '#/$defs/str' } },
    });
    expect(validate(draft2020, { s: 1 })).toBe('params/s must be string');
    expect(validate(tool({ $ref: '#/nowhere' }), { anything: true })).toBeUndefined();
  });
});
