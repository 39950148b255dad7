import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * Validates tool arguments against the tool's JSON Schema before any call (reference 3.2): draft-07
 * by default, 2020-12 when `$schema` says so. Foreign schemas are compiled leniently (unknown keywords
 * and formats pass) so that a quirky server is not made unusable by its own schema.
 */
export class ArgumentValidator {
  private readonly draft7 = new Ajv({ strict: false, allErrors: false, validateFormats: false, logger: false });
  private readonly draft2020 = new Ajv2020({ strict: false, allErrors: false, validateFormats: false, logger: false });
  private readonly cache = new WeakMap<object, ValidateFunction | Error>();

  /** Undefined when valid, else the validator text (`params must have required property 'x'`). */
  validate(schema: Record<string, unknown> | undefined, args: unknown): string | undefined {
    if (!schema || typeof schema !== 'object') return undefined;
    let fn = this.cache.get(schema);
    if (!fn) {
      fn = this.compile(schema);
      this.cache.set(schema, fn);
    }
    if (fn instanceof Error) return `Tool schema could not be compiled: ${fn.message}`;
    if (fn(args)) return undefined;
    const ajv = this.isDraft2020(schema) ? this.draft2020 : this.draft7;
    return ajv.errorsText(fn.errors, { dataVar: 'params' });
  }

  private isDraft2020(schema: Record<string, unknown>): boolean {
    return typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  }

  private compile(schema: Record<string, unknown>): ValidateFunction | Error {
    try {
      if (this.isDraft2020(schema)) return this.draft2020.compile(schema);
      // Ajv's draft-07 instance refuses unknown $schema URIs; the keyword set is what matters here.
      const { $schema, ...rest } = schema;
      return this.draft7.compile(typeof $schema === 'string' && $schema.includes('draft-07') ? schema : rest);
    } catch (err) {
      return err as Error;
    }
  }
}
