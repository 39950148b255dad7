import * as z from 'zod';

/**
 * A numeric parameter floored before validation (`offset: 2.7` behaves as 2). The
 * declared JSON Schema stays a plain `number` with its minimum, as clients expect.
 */
export function flooredNumber(min?: number) {
  const inner = min === undefined ? z.number().int() : z.number().int().min(min);
  const meta: Record<string, unknown> = { type: 'number' };
  if (min !== undefined) meta.minimum = min;
  return z.number().transform(Math.floor).pipe(inner).meta(meta);
}
