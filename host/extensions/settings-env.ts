/**
 * An extension's `.env` as Gemini CLI writes it: `KEY=value`, values with spaces double-quoted. Neither
 * reader (Node's parseEnv here, dotenv in Gemini CLI) unescapes `\"` or `\\`, so a value is never escaped:
 * it goes in quotes it does not contain, double quotes first (as Gemini CLI writes them), then single
 * quotes, then backticks; double quotes would turn a `\n` in it into a line break, so not then.
 */
export function formatEnv(values: Record<string, string>): string {
  let out = '';
  for (const [key, value] of Object.entries(values)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`Invalid environment variable name: "${key}".`);
    if (/[\r\n]/.test(value)) throw new Error(`Invalid value for "${key}": values cannot contain newlines.`);
    out += `${key}=${quoted(key, value)}\n`;
  }
  return out;
}

function quoted(key: string, value: string): string {
  if (!/[\s"'`#\\]/.test(value)) return value;
  const quote = ['"', "'", '`'].find((q) => !value.includes(q) && (q !== '"' || !/\\[nr]/.test(value)));
  if (!quote)
    throw new Error(`Invalid value for "${key}": a value holding ', " and \` at once cannot be kept in a .env file.`);
  return `${quote}${value}${quote}`;
}
