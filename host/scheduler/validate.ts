import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

// validateSchema off: checking each tool schema against the draft's meta-schema compiles that
// meta-schema first, two thirds of the first call's validation cost (~35 of 50 ms); Ajv still refuses
// keyword values of the wrong type ("type must be JSONType") when it compiles.
const OPTIONS = {
  strict: false,
  allErrors: false,
  validateFormats: false,
  validateSchema: false,
  logger: false,
} as const;
// The 2020-12 dialect is rare in tool schemas: loaded on first use, not at start-up.
const requireLazy = createRequire(import.meta.url);

/**
 * Validates tool arguments against the tool's JSON Schema before any call: draft-07
 * by default, 2020-12 when `$schema` says so. Foreign schemas are compiled leniently (unknown keywords
 * and formats pass) so that a quirky server is not made unusable by its own schema.
 */
export class ArgumentValidator {
  /** Ajv, imported by `ready()`: a session's first model request need not wait for it to compile. */
  private ajv?: typeof Ajv;
  private draft7?: Ajv;
  private draft2020?: Ajv2020;
  private readonly cache = new WeakMap<object, ValidateFunction | Error>();

  /** Loads Ajv; `validate` needs it done. */
  async ready(): Promise<void> {
    if (this.ajv) return;
    // ajv is CommonJS: depending on the loader its class is a named export or hangs off the default one.
    const mod = (await import('ajv')) as unknown as { Ajv?: typeof Ajv; default?: { Ajv?: typeof Ajv } };
    this.ajv = mod.Ajv ?? mod.default?.Ajv;
  }

  /** Undefined when valid, else the validator text (`params must have required property 'x'`). */
  validate(schema: Record<string, unknown> | undefined, args: unknown): string | undefined {
    if (!schema || typeof schema !== 'object') return undefined;
    // Thrown here, not cached as this schema's compile error: the schema is fine once Ajv is loaded.
    if (!this.ajv) throw new Error('ArgumentValidator.ready() was not awaited');
    let fn = this.cache.get(schema);
    if (!fn) {
      fn = this.compile(schema);
      this.cache.set(schema, fn);
    }
    if (fn instanceof Error) return `Tool schema could not be compiled: ${fn.message}`;
    if (fn(args)) return undefined;
    return this.ajvFor(schema).errorsText(fn.errors, { dataVar: 'params' });
  }

  private isDraft2020(schema: Record<string, unknown>): boolean {
    return typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  }

  /** Built on first use: most sessions validate against one dialect only. */
  private ajvFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
    if (!this.ajv) throw new Error('ArgumentValidator.ready() was not awaited');
    if (!this.isDraft2020(schema)) return (this.draft7 ??= new this.ajv(OPTIONS));
    if (!this.draft2020) {
      const { Ajv2020: Ctor } = requireLazy('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
      this.draft2020 = new Ctor(OPTIONS);
    }
    return this.draft2020;
  }

  private compile(schema: Record<string, unknown>): ValidateFunction | Error {
    try {
      const ajv = this.ajvFor(schema);
      if (this.isDraft2020(schema)) return ajv.compile(schema);
      // Ajv's draft-07 instance refuses unknown $schema URIs; the keyword set is what matters here.
      const { $schema, ...rest } = schema;
      return ajv.compile(typeof $schema === 'string' && $schema.includes('draft-07') ? schema : rest);
    } catch (err) {
      return err as Error;
    }
  }
}
