import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Logger } from '../servers/common/logger.js';
import type { DiscoveredTool } from './declarations.js';

export type ArgsValidator = (tool: DiscoveredTool, args: Record<string, unknown>) => string | undefined;

/**
 * Checks call arguments against the tool's published schema before anything runs, as upstream does
 * for discovered tools, so the model gets a precise message instead of a script failure. A schema Ajv
 * cannot compile is not the caller's fault: such tools run unchecked (logged once).
 */
export function createArgsValidator(log: Logger): ArgsValidator {
  const options = { strict: false, allErrors: true, validateFormats: false };
  // Built on the first call: two Ajv instances cost the server's startup several milliseconds.
  let draft07: Ajv | undefined;
  let draft2020: Ajv2020 | undefined;
  const compiled = new WeakMap<DiscoveredTool, ValidateFunction | null>();
  return (tool, args) => {
    let validate = compiled.get(tool);
    if (validate === undefined) {
      const is2020 = String(tool.inputSchema.$schema ?? '').includes('2020-12');
      try {
        validate = (is2020 ? (draft2020 ??= new Ajv2020(options)) : (draft07 ??= new Ajv(options))).compile(
          tool.inputSchema,
        );
      } catch (err) {
        log.warn(`tool "${tool.name}": schema not checkable, arguments pass unchecked: ${(err as Error).message}`);
        validate = null;
      }
      compiled.set(tool, validate);
    }
    if (!validate || validate(args)) return undefined;
    return (draft07 ??= new Ajv(options)).errorsText(validate.errors, { dataVar: 'params' });
  };
}
