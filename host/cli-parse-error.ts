/**
 * node:util's parseArgs errors, reworded: its unknown-option hint ends in an unbalanced quote, and a
 * prompt that starts with '-' is better shown as the command to type.
 */
export function parseArgsMessage(err: unknown, command: string): string {
  const e = err as { code?: string; message?: string };
  const option = /Unknown option '([^']+)'/.exec(e.message ?? '')?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    const quoted = `'${option.replace(/'/g, `'\\''`)}'`;
    return `Unknown option ${quoted}. Text that starts with '-' goes after '--': ${command} -- ${quoted}`;
  }
  return String(e.message ?? err);
}

export function isParseArgsError(err: unknown): boolean {
  return String((err as { code?: unknown })?.code ?? '').startsWith('ERR_PARSE_ARGS');
}
