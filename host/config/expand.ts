/**
 * `$VAR`, `${VAR}` and `${VAR:-default}` in settings strings. An unset variable without a default stays as
 * the literal placeholder (Gemini CLI behaviour), so a missing secret is visible rather than silently empty.
 */
const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export function expandString(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(
    PATTERN,
    (whole, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare!;
      const v = env[name];
      if (v !== undefined && (v !== '' || fallback === undefined)) return v;
      return fallback ?? whole;
    },
  );
}

/** Expands every string inside a JSON value (object keys are left alone). */
export function expandDeep(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') return expandString(value, env);
  if (Array.isArray(value)) return value.map((v) => expandDeep(v, env));
  if (value && typeof value === 'object') {
    // fromEntries defines own properties: a server named `__proto__` stays a key, never the prototype.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandDeep(v, env)]));
  }
  return value;
}
