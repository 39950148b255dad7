import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthServerConfig } from '../../config/server-oauth.js';
import type { TokenStore } from './token-store.js';

/** A remote server wants a login the host cannot do on its own: the user runs `gemini-mcp mcp auth`. */
export class AuthRequiredError extends Error {
  constructor(readonly serverName: string) {
    super(`needs authentication: run "gemini-mcp mcp auth ${serverName}" to sign in`);
    this.name = 'AuthRequiredError';
  }
}

/** Where the browser comes back to when nothing else is known (a connection only refreshes tokens). */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/oauth/callback';

export interface ProviderOptions {
  config: OAuthServerConfig;
  serverUrl: string;
  /** Interactive sign-in only (`mcp auth`): the loopback listener's URL and what to do with the login URL. */
  redirectUrl?: string;
  onAuthorizationUrl?: (url: URL) => void;
}

/**
 * The SDK's OAuth client provider over our token file. The SDK does the protocol (discovery, dynamic
 * registration, PKCE, code exchange, refresh on 401); this keeps what it hands over unchanged. Without
 * `onAuthorizationUrl` (a connection, not a sign-in) a needed login is an `AuthRequiredError` telling the
 * user what to run, never a browser opened in the middle of a session.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  private verifier?: string;
  readonly expectedState = randomBytes(16).toString('hex');

  constructor(
    private readonly store: TokenStore,
    private readonly o: ProviderOptions,
  ) {}

  get redirectUrl(): string {
    return this.o.redirectUrl ?? this.o.config.redirectUri ?? this.registeredRedirect() ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'gemini-mcp',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.o.config.clientSecret ? 'client_secret_post' : 'none',
      ...(this.o.config.scopes?.length ? { scope: this.o.config.scopes.join(' ') } : {}),
    };
  }

  state(): string {
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.o.config;
    if (clientId) return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    const stored = this.entry()?.clientInformation;
    // A sign-in on a new loopback port needs a registration that allows it: register again.
    const uris = stored && 'redirect_uris' in stored ? stored.redirect_uris : undefined;
    if (this.o.redirectUrl && uris && !uris.includes(this.o.redirectUrl)) return undefined;
    // A connection never registers a client on its own: nothing stored means the user has not signed in.
    if (!stored && !this.o.onAuthorizationUrl) throw new AuthRequiredError(this.o.config.serverName);
    return stored;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.store.update(this.o.config.serverName, this.o.serverUrl, (e) => ({ ...e, clientInformation: info }));
  }

  tokens(): OAuthTokens | undefined {
    return this.entry()?.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.update(this.o.config.serverName, this.o.serverUrl, (e) => ({ ...e, tokens, savedAt: Date.now() }));
  }

  redirectToAuthorization(url: URL): void {
    if (!this.o.onAuthorizationUrl) throw new AuthRequiredError(this.o.config.serverName);
    this.o.onAuthorizationUrl(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('No PKCE code verifier: the sign-in was not started by this process.');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') this.verifier = undefined;
    if (scope === 'verifier' || scope === 'discovery') return;
    this.store.update(this.o.config.serverName, this.o.serverUrl, (e) => ({
      ...e,
      ...(scope === 'all' || scope === 'client' ? { clientInformation: undefined } : {}),
      ...(scope === 'all' || scope === 'tokens' ? { tokens: undefined, savedAt: undefined } : {}),
    }));
  }

  private entry() {
    return this.store.get(this.o.config.serverName, this.o.serverUrl);
  }

  private registeredRedirect(): string | undefined {
    const info = this.entry()?.clientInformation;
    return info && 'redirect_uris' in info ? info.redirect_uris[0] : undefined;
  }
}
