import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import express from 'express';

/**
 * A remote MCP server behind OAuth 2.1, all on 127.0.0.1: the SDK's authorization-server router (metadata,
 * dynamic registration, authorize, token with PKCE verification), protected-resource metadata, bearer
 * checks on `/mcp` (Streamable HTTP) and `/sse` (SSE), and a `whoami` tool. The authorize step approves at
 * once (the test plays the browser). Counts what happened so tests can assert the flow.
 */
export class OAuthMcpFixture {
  readonly seen = { registrations: 0, codeExchanges: 0, refreshes: 0, authorizeParams: [] as AuthorizationParams[] };
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  private readonly access = new Map<string, { clientId: string; expiresAt: number }>();
  private readonly refresh = new Map<string, string>();
  private server?: Server;
  base = '';

  async start(): Promise<this> {
    const app = express();
    const listening = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    this.server = listening;
    this.base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    const mcpUrl = new URL(`${this.base}/mcp`);
    app.use(mcpAuthRouter({ provider: this.provider(), issuerUrl: new URL(this.base), resourceServerUrl: mcpUrl }));
    const bearer = requireBearerAuth({
      verifier: this.provider(),
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    });
    app.post('/mcp', express.json(), bearer, async (req, res) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await this.mcp(req.auth).connect(transport);
      await transport.handleRequest(req, res, req.body);
    });
    const sse = new Map<string, SSEServerTransport>();
    app.get('/sse', bearer, async (req, res) => {
      const transport = new SSEServerTransport('/messages', res);
      sse.set(transport.sessionId, transport);
      res.on('close', () => sse.delete(transport.sessionId));
      await this.mcp(req.auth).connect(transport);
    });
    app.post('/messages', bearer, async (req, res) => {
      const t = sse.get(String(req.query.sessionId));
      if (!t) return void res.status(404).end();
      await t.handlePostMessage(req, res);
    });
    return this;
  }

  /** Every access token issued so far stops working (as if it ran out): the client must refresh. */
  expireAccessTokens(): void {
    for (const entry of this.access.values()) entry.expiresAt = 0;
  }

  close(): Promise<void> {
    return new Promise((r) => {
      this.server?.closeAllConnections();
      this.server?.close(() => r());
    });
  }

  private mcp(auth: AuthInfo | undefined): McpServer {
    const server = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Who the bearer token belongs to.' }, async () => ({
      content: [{ type: 'text', text: `hello client ${auth?.clientId}` }],
    }));
    return server;
  }

  private issue(clientId: string): OAuthTokens {
    const access = randomUUID();
    const refresh = randomUUID();
    this.access.set(access, { clientId, expiresAt: Date.now() + 3_600_000 });
    this.refresh.set(refresh, clientId);
    return { access_token: access, token_type: 'bearer', expires_in: 3600, refresh_token: refresh };
  }

  private provider(): OAuthServerProvider {
    const f = this;
    return {
      clientsStore: {
        getClient: async (id) => f.clients.get(id),
        registerClient: async (client) => {
          f.seen.registrations++;
          const full = client as OAuthClientInformationFull;
          f.clients.set(full.client_id, full);
          return full;
        },
      },
      async authorize(client, params, res) {
        f.seen.authorizeParams.push(params);
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
        f.seen.codeExchanges++;
        return f.issue(client.client_id);
      },
      async exchangeRefreshToken(client, refreshToken) {
        if (f.refresh.get(refreshToken) !== client.client_id) throw new Error('bad refresh token');
        f.refresh.delete(refreshToken);
        f.seen.refreshes++;
        return f.issue(client.client_id);
      },
      async verifyAccessToken(token) {
        const entry = f.access.get(token);
        if (!entry) throw new InvalidTokenError('unknown token');
        return { token, clientId: entry.clientId, scopes: [], expiresAt: Math.floor(entry.expiresAt / 1000) };
      },
    };
  }
}
