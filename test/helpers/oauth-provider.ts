import { randomUUID } from 'node:crypto';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What a client was granted: the audience it named (RFC 8707 `resource`) and the scopes it requested. */
export type OAuthGrant = { clientId: string; resource?: string; scope: string };

/** How one test server differs: the access token it mints, how it checks one, and what it counts. */
export type OAuthProviderHooks = {
  mintAccessToken(grant: OAuthGrant): Promise<string> | string;
  verifyAccessToken(token: string): Promise<AuthInfo>;
  onRegister?(): void;
  onAuthorize?(params: AuthorizationParams): void;
  onCodeExchange?(): void;
  onRefresh?(): void;
};

/**
 * The in-memory authorization-server side every OAuth test server needs, for the SDK's `mcpAuthRouter`:
 * dynamic client registration, an authorize step that approves at once (the test plays the browser and the
 * user), single-use codes bound to the client, and single-use refresh tokens that carry the original grant.
 */
export function inMemoryOAuthProvider(hooks: OAuthProviderHooks): OAuthServerProvider {
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  const refreshTokens = new Map<string, OAuthGrant>();
  const issue = async (grant: OAuthGrant): Promise<OAuthTokens> => {
    const refresh = randomUUID();
    refreshTokens.set(refresh, grant);
    const access = await hooks.mintAccessToken(grant);
    return { access_token: access, token_type: 'bearer', expires_in: 3600, refresh_token: refresh };
  };
  return {
    clientsStore: {
      getClient: async (id) => clients.get(id),
      registerClient: async (client) => {
        hooks.onRegister?.();
        const full = client as OAuthClientInformationFull;
        clients.set(full.client_id, full);
        return full;
      },
    },
    async authorize(client, params, res) {
      hooks.onAuthorize?.(params);
      const code = randomUUID();
      codes.set(code, { clientId: client.client_id, params });
      const target = new URL(params.redirectUri);
      target.searchParams.set('code', code);
      if (params.state !== undefined) target.searchParams.set('state', params.state);
      res.redirect(target.href);
    },
    challengeForAuthorizationCode: async (_client, code) => codes.get(code)!.params.codeChallenge,
    async exchangeAuthorizationCode(client, code) {
      const entry = codes.get(code);
      if (!entry || entry.clientId !== client.client_id) throw new Error('bad code');
      codes.delete(code);
      hooks.onCodeExchange?.();
      const { resource, scopes } = entry.params;
      return issue({ clientId: client.client_id, resource: resource?.href, scope: (scopes ?? []).join(' ') });
    },
    async exchangeRefreshToken(client, refreshToken) {
      const grant = refreshTokens.get(refreshToken);
      if (grant?.clientId !== client.client_id) throw new Error('bad refresh token');
      refreshTokens.delete(refreshToken);
      hooks.onRefresh?.();
      return issue(grant);
    },
    verifyAccessToken: (token) => hooks.verifyAccessToken(token),
  };
}
