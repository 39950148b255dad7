import { discoverAuthorizationServerMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { OAuthFlags } from './auth-flags.js';

/** What a token proved: who holds it (issuer and subject) and what it may do. */
export interface TokenHolder {
  issuer: string;
  subject: string;
  scopes: string[];
}

/** A token that did not verify: `invalid_token` is the client's to fix; `unavailable` is ours (the keys were unreachable). */
export type TokenFailure = { kind: 'invalid_token' | 'unavailable'; description: string };

export type Verify = (token: string) => Promise<TokenHolder | TokenFailure>;

/**
 * Signatures by the issuer's public keys only: a symmetric algorithm would let anyone holding the key set
 * (it is public) sign tokens, and `none` signs nothing.
 */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** Clocks of the issuer and the replicas drift; a token's `exp`/`nbf` get this much slack. */
const CLOCK_TOLERANCE_SECONDS = 30;

const DISCOVERY_TIMEOUT_MS = 10_000;

/** Why a token failed, by jose's error code, in words a client can act on (no token content is echoed). */
const TOKEN_FAULTS: Record<string, string> = {
  ERR_JWT_EXPIRED: 'the token has expired',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'the token signature does not verify',
  ERR_JWKS_NO_MATCHING_KEY: 'no signing key of the issuer matches the token',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'the token does not say which of the issuer keys signed it',
  ERR_JOSE_ALG_NOT_ALLOWED: 'the token is signed with an algorithm this server does not accept',
  ERR_JOSE_NOT_SUPPORTED: 'the token uses an unsupported format or algorithm',
  ERR_JWS_INVALID: 'the token is not a well-formed JWT',
  ERR_JWT_INVALID: 'the token is not a well-formed JWT',
};

/**
 * Checks JWT access tokens against the issuer's key set. jose fetches the keys on first use and keeps them:
 * a token signed by a key not in the set (the issuer rotated) fetches them again, at most once per cooldown,
 * and the set is fetched anew after 10 minutes regardless. Nothing is shared between replicas: each checks
 * every token itself.
 */
export async function createJwtVerifier(auth: OAuthFlags, audience: () => string[]): Promise<Verify> {
  const jwksUrl = auth.jwksUrl ?? (await discoverJwksUrl(auth.issuer));
  const keys = createRemoteJWKSet(new URL(jwksUrl), { cooldownDuration: auth.jwksCooldownMs });
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: auth.issuer,
        audience: audience(),
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      return classify(err as JoseError);
    }
    if (typeof payload.sub !== 'string' || payload.sub === '')
      return { kind: 'invalid_token', description: 'the token has no subject' };
    return { issuer: auth.issuer, subject: payload.sub, scopes: scopesOf(payload) };
  };
}

type JoseError = Error & { code?: string; claim?: string; reason?: string };

function classify(err: JoseError): TokenFailure {
  if (err.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    const claim = err.claim ?? 'a';
    const reason = err.reason === 'missing' ? 'is missing' : 'does not match';
    const what: Record<string, string> = {
      aud: `the token is not for this resource (its audience ${reason})`,
      iss: `the token is from another issuer (its issuer ${reason})`,
      nbf: 'the token is not valid yet',
    };
    return { kind: 'invalid_token', description: what[claim] ?? `the token's ${claim} claim ${reason}` };
  }
  const fault = err.code ? TOKEN_FAULTS[err.code] : undefined;
  if (fault) return { kind: 'invalid_token', description: fault };
  // A timeout, a refused connection or a bad answer from the key set's URL: the token may be fine.
  return { kind: 'unavailable', description: `cannot load the issuer's signing keys (${err.message})` };
}

/** Scopes from the space-separated `scope` claim, or from `scp` (a list, as some identity providers send it). */
function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** The key set's URL from the issuer's OAuth or OpenID metadata, which must name the same issuer. */
async function discoverJwksUrl(issuer: string): Promise<string> {
  let metadata: Awaited<ReturnType<typeof discoverAuthorizationServerMetadata>>;
  try {
    // An issuer that never answers must not hang the start-up: one deadline for every URL tried.
    const signal = AbortSignal.timeout(DISCOVERY_TIMEOUT_MS);
    const fetchFn: typeof fetch = (url, init) => fetch(url, { ...init, signal });
    metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn });
  } catch (err) {
    throw new Error(`--auth-issuer ${issuer}: cannot read its metadata (${(err as Error).message})`);
  }
  if (!metadata)
    throw new Error(`--auth-issuer ${issuer}: it serves no OAuth or OpenID metadata (or use --auth-jwks-url)`);
  if (metadata.issuer !== issuer)
    throw new Error(`--auth-issuer ${issuer}: its metadata names another issuer, ${metadata.issuer}`);
  const jwks = (metadata as { jwks_uri?: string }).jwks_uri;
  if (!jwks) throw new Error(`--auth-issuer ${issuer}: its metadata has no jwks_uri (use --auth-jwks-url)`);
  return jwks;
}
