import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthFlags } from './auth-flags.js';
import type { CommonFlags } from './flags.js';
import { createJwtVerifier } from './jwt-verifier.js';
import type { Logger } from './logger.js';
import { isLoopbackHostname } from '../../protocol/loopback.js';

/** Who sent a request that passed. */
export interface Caller {
  /**
   * Whose sessions the caller may use: the token's issuer and subject with OAuth; undefined with the static
   * token or none, where every caller is the one user.
   */
  owner?: string;
}

/** The HTTP server's one authentication decision; `serveHttp` asks it about every request to `/mcp`. */
export interface HttpAuth {
  /** The URL the server listens on for MCP (the resource URL when none was given). */
  listening(mcpUrl: string): void;
  /** Answers a request for the protected-resource metadata; false for any other path. */
  serveMetadata(pathname: string, req: IncomingMessage, res: ServerResponse): boolean;
  /** The caller, or undefined once the request was refused (401, 403, 503). */
  authenticate(req: IncomingMessage, res: ServerResponse): Promise<Caller | undefined>;
}

const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** OAuth JWT access tokens with `--auth-issuer`, else the static `--token-env` token, else nothing (loopback). */
export async function createHttpAuth(flags: CommonFlags, log: Logger): Promise<HttpAuth> {
  if (!isLoopbackHostname(flags.host) && !flags.token && !flags.auth) {
    throw new Error(
      `refusing to listen on non-loopback host ${flags.host} without a token (use --token-env NAME or --auth-issuer URL)`,
    );
  }
  // Behind a load balancer the listen address is not what clients use: the audience must be said.
  if (!isLoopbackHostname(flags.host) && flags.auth && !flags.auth.resourceUrl) {
    throw new Error(`--auth-issuer on non-loopback host ${flags.host} needs --resource-url (the server's public URL)`);
  }
  if (flags.auth) return createOAuthResourceServer(flags.auth, log);
  const token = flags.token;
  return {
    listening: () => undefined,
    serveMetadata: () => false,
    authenticate: async (req, res) => {
      if (!token || tokenMatches(req.headers.authorization, token)) return {};
      res.setHeader('WWW-Authenticate', 'Bearer');
      refuse(res, 401, -32001, 'Unauthorized: missing or wrong bearer token');
      return undefined;
    },
  };
}

/**
 * An OAuth resource server: a request needs a JWT access token of the issuer, for this resource (audience),
 * unexpired and holding the required scopes. A refusal names the protected-resource metadata, which names
 * the issuer, so a client can sign in on its own.
 */
async function createOAuthResourceServer(auth: OAuthFlags, log: Logger): Promise<HttpAuth> {
  let resource = auth.resourceUrl ? new URL(auth.resourceUrl) : undefined;
  // A root resource URL is written with or without its slash; a token naming either is for us.
  const audiences = () => (resource ? [resource.href, resource.href.replace(/\/$/, '')] : []);
  const verify = await createJwtVerifier(auth, audiences);
  const scope = auth.requiredScopes.length ? auth.requiredScopes.join(' ') : undefined;
  const metadataUrl = () => new URL(METADATA_PATH + pathSuffix(resource!), resource).href;
  const deny = (res: ServerResponse, status: number, params: Record<string, string | undefined>, text: string) => {
    res.setHeader('WWW-Authenticate', challenge({ ...params, resource_metadata: metadataUrl() }));
    refuse(res, status, -32001, text);
    return undefined;
  };
  return {
    listening: (mcpUrl) => {
      resource ??= new URL(mcpUrl);
      log.info(`http: accepting OAuth access tokens of ${auth.issuer} for ${resource.href}`);
    },
    serveMetadata: (pathname, req, res) => {
      if (!resource || (pathname !== METADATA_PATH && pathname !== METADATA_PATH + pathSuffix(resource))) return false;
      const metadata = {
        resource: resource.href,
        authorization_servers: [auth.issuer],
        bearer_methods_supported: ['header'],
        ...(auth.requiredScopes.length ? { scopes_supported: auth.requiredScopes } : {}),
      };
      sendPublicJson(req, res, metadata);
      return true;
    },
    authenticate: async (req, res) => {
      if (!resource) return refuse(res, 503, -32000, 'Service unavailable: the server is starting');
      const bearer = /^Bearer +([\w\-.~+/]+=*)$/i.exec(req.headers.authorization ?? '');
      if (!bearer)
        return deny(res, 401, { scope }, `Unauthorized: an OAuth access token of ${auth.issuer} is required`);
      const holder = await verify(bearer[1]!);
      if ('kind' in holder && holder.kind === 'unavailable') {
        log.warn(`http: ${holder.description}`);
        res.setHeader('Retry-After', '5');
        return refuse(res, 503, -32000, 'Service unavailable: cannot check access tokens right now; try again');
      }
      if ('kind' in holder) {
        log.info(`http: refused an access token: ${holder.description}`);
        const params = { error: 'invalid_token', error_description: holder.description };
        return deny(res, 401, params, `Unauthorized: ${holder.description}`);
      }
      const missing = auth.requiredScopes.filter((s) => !holder.scopes.includes(s));
      if (missing.length) {
        const description = `the token lacks the scope ${missing.join(' ')}`;
        return deny(
          res,
          403,
          { error: 'insufficient_scope', scope, error_description: description },
          `Forbidden: ${description}`,
        );
      }
      // JSON keeps the pair unambiguous whatever characters the issuer and subject hold.
      return { owner: JSON.stringify([holder.issuer, holder.subject]) };
    },
  };
}

/** The metadata path's suffix for a resource URL: its path, unless that is `/` (RFC 9728's well-known form). */
function pathSuffix(resource: URL): string {
  return resource.pathname === '/' ? '' : resource.pathname;
}

/** A Bearer challenge; values lose the characters a quoted auth-param may not hold. */
function challenge(params: Record<string, string | undefined>): string {
  const pairs = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  return `Bearer ${pairs.map(([k, v]) => `${k}="${v.replace(/[^\x20-\x7e]|["\\]/g, '')}"`).join(', ')}`;
}

/** Public metadata: any origin may read it (browser-based clients discover the issuer from it). */
function sendPublicJson(req: IncomingMessage, res: ServerResponse, body: unknown): void {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-allow-headers': '*',
  };
  if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD, OPTIONS', 'content-type': 'text/plain' });
    return void res.end('Method not allowed\n');
  }
  res.writeHead(200, { ...cors, 'content-type': 'application/json', 'cache-control': 'public, max-age=300' });
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: ServerResponse, status: number, code: number, message: string): undefined {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
  return undefined;
}
