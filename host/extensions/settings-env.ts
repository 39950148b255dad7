/** An extension's `.env` as Gemini CLI writes it: `KEY=value`, values with spaces double-quoted. */
export function formatEnv(values: Record<string, string>): string {
  let out = '';
  for (const [key, value] of Object.entries(values)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`Invalid environment variable name: "${key}".`);
    if (/[\r\n]/.test(value)) throw new Error(`Invalid value for "${key}": values cannot contain newlines.`);
    const v = /[\s"'#\\]/.test(value) ? `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : value;
    out += `${key}=${v}\n`;
  }
  return out;
}
