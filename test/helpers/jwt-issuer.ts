import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import express from 'express';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { inMemoryOAuthProvider } from './oauth-provider.js';

type SigningKey = { kid: string; privateKey: CryptoKey; jwk: JWK };

/**
 * A real OAuth 2.1 authorization server on 127.0.0.1 that issues JWT access tokens, as an identity provider
 * does: RFC 8414 metadata naming its `jwks_uri`, a JWKS of ES256 public keys (counted, rotatable), and the
 * SDK's authorize / token / dynamic-registration handlers (authorize approves at once: the test plays the
 * browser and the user). Tokens carry `iss`, `sub` (the signed-in user), `aud` (the RFC 8707 `resource` the
 * client asked for), `scope` (what the client requested) and `exp`. `sign` mints any token a test needs, good or bad.
 */
export class JwtIssuer {
  /** Requests for the key set so far. */
  jwksRequests = 0;
  /** What clients asked for at the authorize endpoint, in order. */
  readonly authorizeParams: AuthorizationParams[] = [];
  /** The subject of tokens issued through the authorize flow. */
  user = 'alice';
  base = '';
  private keys: SigningKey[] = [];
  private server?: Server;

  async start(): Promise<this> {
    await this.rotate();
    const app = express();
    this.server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    app.get('/jwks', (_req, res) => {
      this.jwksRequests++;
      res.json({ keys: this.keys.map((k) => k.jwk) });
    });
    // Before the SDK's router, so discovery reads this metadata, which names the key set.
    app.get('/.well-known/oauth-authorization-server', (_req, res) => {
      res.json({
        issuer: this.base,
        authorization_endpoint: `${this.base}/authorize`,
        token_endpoint: `${this.base}/token`,
        registration_endpoint: `${this.base}/register`,
        jwks_uri: `${this.base}/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
      });
    });
    app.use(mcpAuthRouter({ provider: this.provider(), issuerUrl: new URL(this.base) }));
    return this;
  }

  /** A new signing key, published beside the old ones; tokens from now on are signed with it. */
  async rotate(): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const kid = randomUUID();
    this.keys.push({ kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } });
    return kid;
  }

  /** A token with these claims over sensible defaults (this issuer, valid for an hour), signed with the newest key. */
  async sign(claims: JWTPayload, opts: { key?: CryptoKey; kid?: string } = {}): Promise<string> {
    const key = this.keys.at(-1)!;
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: this.base, sub: this.user, iat: now, exp: now + 3600, ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: opts.kid ?? key.kid, typ: 'at+jwt' })
      .sign(opts.key ?? key.privateKey);
  }

  close(): Promise<void> {
    return new Promise((r) => {
      this.server?.closeAllConnections();
      this.server?.close(() => r());
    });
  }

  /** Grants what the client asked for: the audience it named and the scopes it requested. */
  private provider(): OAuthServerProvider {
    return inMemoryOAuthProvider({
      onAuthorize: (params) => this.authorizeParams.push(params),
      mintAccessToken: ({ clientId, resource, scope }) => this.sign({ aud: resource, scope, client_id: clientId }),
      verifyAccessToken: async () => {
        throw new Error('this issuer does not serve resources');
      },
    });
  }
}
