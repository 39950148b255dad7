import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import express from 'express';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

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
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  private readonly refresh = new Map<string, { clientId: string; resource?: string; scope: string }>();

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
  private async issue(clientId: string, resource: string | undefined, scope: string): Promise<OAuthTokens> {
    const refresh = randomUUID();
    this.refresh.set(refresh, { clientId, resource, scope });
    const access = await this.sign({ aud: resource, scope, client_id: clientId });
    return { access_token: access, token_type: 'bearer', expires_in: 3600, refresh_token: refresh };
  }

  private provider(): OAuthServerProvider {
    const f = this;
    return {
      clientsStore: {
        getClient: async (id) => f.clients.get(id),
        registerClient: async (client) => {
          const full = client as OAuthClientInformationFull;
          f.clients.set(full.client_id, full);
          return full;
        },
      },
      async authorize(client, params, res) {
        f.authorizeParams.push(params);
        const code = randomUUID();
        f.codes.set(code, { clientId: client.client_id, params });
        const target = new URL(params.redirectUri);
        target.searchParams.set('code', code);
        if (params.state !== undefined) target.searchParams.set('state', params.state);
        res.redirect(target.href);
      },
      challengeForAuthorizationCode: async (_client, code) => f.codes.get(code)!.params.codeChallenge,
      async exchangeAuthorizationCode(client, code) {
        const entry = f.codes.get(code);
        if (!entry || entry.clientId !== client.client_id) throw new Error('bad code');
        f.codes.delete(code);
        return f.issue(client.client_id, entry.params.resource?.href, (entry.params.scopes ?? []).join(' '));
      },
      async exchangeRefreshToken(client, refreshToken) {
        const entry = f.refresh.get(refreshToken);
        if (entry?.clientId !== client.client_id) throw new Error('bad refresh token');
        f.refresh.delete(refreshToken);
        return f.issue(client.client_id, entry.resource, entry.scope);
      },
      async verifyAccessToken() {
        throw new Error('this issuer does not serve resources');
      },
    };
  }
}
