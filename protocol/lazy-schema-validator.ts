import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';

/**
 * A JSON Schema validator for an SDK client or server that does no work before a value is validated.
 *
 * The SDK builds an Ajv instance (its formats, its meta-schema) when a client or server is constructed,
 * ~2 ms of the process's thread, and a client compiles every listed tool's output schema as it lists
 * them. The host validates no tool output (a mismatch reaches the model as an ordinary result:
 * host/mcp/tool-call.ts), and our servers check a form's answer only when a call asks for a confirmation,
 * so here the instance is built, and a schema compiled, only when a value is first checked against it. A
 * tool whose output schema cannot be compiled (a reference to nothing) then no longer fails its server's
 * whole listing.
 *
 * One instance per client or server, never shared: Ajv keeps every schema with an `$id` it compiled and
 * the SDK reuses a kept one by `$id`, so two servers' different schemas under one `$id` must not meet.
 */
export function lazySchemaValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      let validate: JsonSchemaValidator<T> | undefined;
      return (input) => (validate ??= (ajv ??= new AjvJsonSchemaValidator()).getValidator<T>(schema))(input);
    },
  };
}
