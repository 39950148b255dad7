import type { FlagValues } from './flags.js';

/** OAuth resource-server settings: whose JWT access tokens an HTTP server accepts, and for what. */
export interface OAuthFlags {
  /** The authorization server's issuer URL: the `iss` a token must carry and the server named in the metadata. */
  issuer: string;
  /** Where the issuer's signing keys are; discovered from the issuer's metadata when absent. */
  jwksUrl?: string;
  /** The server's public URL, the `aud` a token must carry; the listen URL when absent (loopback only). */
  resourceUrl?: string;
  /** Scopes a token must all carry. */
  requiredScopes: string[];
  /** After fetching the keys, a token signed with an unknown key waits this long before they are fetched again. */
  jwksCooldownMs: number;
}

export const AUTH_OPTIONS = {
  'auth-issuer': { type: 'string' },
  'auth-jwks-url': { type: 'string' },
  'resource-url': { type: 'string' },
  'required-scope': { type: 'string', multiple: true },
  'auth-jwks-cooldown': { type: 'string' },
} as const;

export const AUTH_USAGE =
  '             [--auth-issuer URL [--auth-jwks-url URL] [--resource-url URL] [--required-scope SCOPE]...\n' +
  '              [--auth-jwks-cooldown SECONDS (30)]]';

/**
 * The OAuth flags, checked: absent without `--auth-issuer`, an error (through `fail`) when they are
 * incomplete, malformed, combined with the static `--token-env`, or given to a server that will not serve HTTP.
 */
export function parseAuthFlags(values: FlagValues, fail: (message: string) => never): OAuthFlags | undefined {
  const issuer = values['auth-issuer'] as string | undefined;
  if (issuer === undefined) {
    const stray = Object.keys(AUTH_OPTIONS).find((name) => values[name] !== undefined);
    if (stray) fail(`--${stray} needs --auth-issuer URL (the authorization server whose tokens are accepted)`);
    return undefined;
  }
  if (values['token-env'] !== undefined)
    fail('--token-env and --auth-issuer are exclusive: use a static token for one user or OAuth tokens, not both');
  if (values.transport !== 'http') fail('--auth-issuer needs --transport http');
  const url = (name: string): string | undefined => {
    const raw = values[name] as string | undefined;
    if (raw === undefined) return undefined;
    const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
    if (
      !parsed ||
      (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') ||
      parsed.hash ||
      parsed.username ||
      parsed.password
    )
      fail(`--${name} must be an http(s) URL without credentials or #fragment, not "${raw}"`);
    return raw;
  };
  const cooldown = Number(values['auth-jwks-cooldown'] ?? 30);
  if (!Number.isFinite(cooldown) || cooldown < 0)
    fail(`--auth-jwks-cooldown must be a number of seconds (0 or more), not "${values['auth-jwks-cooldown']}"`);
  const scopes = ((values['required-scope'] as string[] | undefined) ?? []).flatMap((s) => s.split(/\s+/));
  return {
    issuer: url('auth-issuer')!,
    jwksUrl: url('auth-jwks-url'),
    resourceUrl: url('resource-url'),
    requiredScopes: scopes.filter((s) => s !== ''),
    jwksCooldownMs: Math.round(cooldown * 1000),
  };
}
