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
import express from 'express';
import { inMemoryOAuthProvider } from '../../helpers/oauth-provider.js';

/**
 * A remote MCP server behind OAuth 2.1, all on 127.0.0.1: the SDK's authorization-server router (metadata,
 * dynamic registration, authorize, token with PKCE verification), protected-resource metadata, bearer
 * checks on `/mcp` (Streamable HTTP) and `/sse` (SSE), and a `whoami` tool. The authorize step approves at
 * once (the test plays the browser). Counts what happened so tests can assert the flow.
 */
export class OAuthMcpFixture {
  readonly seen = { registrations: 0, codeExchanges: 0, refreshes: 0, authorizeParams: [] as AuthorizationParams[] };
  private readonly access = new Map<string, { clientId: string; expiresAt: number }>();
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
    const provider = this.provider();
    app.use(mcpAuthRouter({ provider, issuerUrl: new URL(this.base), resourceServerUrl: mcpUrl }));
    const bearer = requireBearerAuth({
      verifier: provider,
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

  private provider(): OAuthServerProvider {
    return inMemoryOAuthProvider({
      onRegister: () => this.seen.registrations++,
      onAuthorize: (params) => this.seen.authorizeParams.push(params),
      onCodeExchange: () => this.seen.codeExchanges++,
      onRefresh: () => this.seen.refreshes++,
      mintAccessToken: ({ clientId }) => {
        const access = randomUUID();
        this.access.set(access, { clientId, expiresAt: Date.now() + 3_600_000 });
        return access;
      },
      verifyAccessToken: async (token) => {
        const entry = this.access.get(token);
        if (!entry) throw new InvalidTokenError('unknown token');
        return { token, clientId: entry.clientId, scopes: [], expiresAt: Math.floor(entry.expiresAt / 1000) };
      },
    });
  }
}
