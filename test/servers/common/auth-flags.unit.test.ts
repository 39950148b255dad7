import { describe, expect, it } from 'vitest';
import { parseAuthFlags } from '../../../servers/common/auth-flags.js';
import type { FlagValues } from '../../../servers/common/flags.js';

class Failed extends Error {}
const fail = (message: string): never => {
  throw new Failed(message);
};
const parse = (values: FlagValues) => parseAuthFlags(values, fail);
const http = (more: FlagValues): FlagValues => ({
  transport: 'http',
  'auth-issuer': 'https://id.example.com',
  ...more,
});

describe('parseAuthFlags', () => {
  it('no --auth-issuer and no other auth flag: no OAuth', () => {
    expect(parse({ transport: 'http' })).toBeUndefined();
    expect(parse({ transport: 'stdio', 'token-env': 'T' })).toBeUndefined();
  });

  it('an auth flag without --auth-issuer is an error naming it', () => {
    expect(() => parse({ transport: 'http', 'required-scope': ['mcp'] })).toThrow(
      '--required-scope needs --auth-issuer URL (the authorization server whose tokens are accepted)',
    );
  });

  it('the full set, with scopes given several ways and the cooldown in seconds', () => {
    expect(
      parse(
        http({
          'auth-jwks-url': 'https://id.example.com/jwks',
          'resource-url': 'https://mcp.example.com/mcp',
          'required-scope': ['mcp:read  mcp:write', 'admin', ''],
          'auth-jwks-cooldown': '2.5',
        }),
      ),
    ).toEqual({
      issuer: 'https://id.example.com',
      jwksUrl: 'https://id.example.com/jwks',
      resourceUrl: 'https://mcp.example.com/mcp',
      requiredScopes: ['mcp:read', 'mcp:write', 'admin'],
      jwksCooldownMs: 2500,
    });
  });

  it('defaults: no scopes, a 30 second cooldown, keys and resource discovered', () => {
    expect(parse(http({}))).toEqual({
      issuer: 'https://id.example.com',
      jwksUrl: undefined,
      resourceUrl: undefined,
      requiredScopes: [],
      jwksCooldownMs: 30_000,
    });
    expect(parse(http({ 'auth-jwks-cooldown': '0' }))?.jwksCooldownMs).toBe(0);
  });

  it('exclusive with a static token, and only over HTTP', () => {
    expect(() => parse(http({ 'token-env': 'TOKEN' }))).toThrow(/--token-env and --auth-issuer are exclusive/);
    expect(() => parse(http({ transport: 'stdio' }))).toThrow('--auth-issuer needs --transport http');
    expect(() => parse(http({ transport: undefined }))).toThrow('--auth-issuer needs --transport http');
  });

  it('URLs must be http(s), without credentials or a fragment', () => {
    for (const [flag, raw] of [
      ['auth-issuer', 'id.example.com'],
      ['auth-issuer', 'ftp://id.example.com'],
      ['auth-jwks-url', 'https://user:pw@id.example.com/jwks'],
      ['auth-issuer', 'https://:pw@id.example.com'],
      ['resource-url', 'https://mcp.example.com/#frag'],
      ['resource-url', 'javascript:alert(1)'],
    ] as const) {
      expect(() => parse(http({ [flag]: raw })), raw).toThrow(
        `--${flag} must be an http(s) URL without credentials or #fragment, not "${raw}"`,
      );
    }
  });

  it('a cooldown that is not a number of seconds, or negative, is refused', () => {
    for (const raw of ['soon', '-1', 'Infinity'])
      expect(() => parse(http({ 'auth-jwks-cooldown': raw })), raw).toThrow(
        `--auth-jwks-cooldown must be a number of seconds (0 or more), not "${raw}"`,
      );
  });
});
