import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthServerConfig } from '../../config/server-oauth.js';
import { isLoopbackHostname } from '../../../protocol/loopback.js';
import { callbackBindHost, isOpenableAuthorizationUrl } from './loopback.js';
import { StoredOAuthProvider } from './provider.js';
import { TokenStore } from './token-store.js';

export interface SignInOptions {
  config: OAuthServerConfig;
  serverUrl: string;
  /** Told the URL to open (and whether a browser was started for it). */
  say: (line: string) => void;
  signal: AbortSignal;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
  /** Start the system browser (never on CI or without a display). */
  openBrowser?: boolean;
}

const DEFAULT_PATH = '/oauth/callback';

/**
 * The interactive sign-in of `gemini-mcp mcp auth NAME`: a loopback listener on 127.0.0.1 receives the
 * authorization code, the SDK does discovery, registration, PKCE and the code exchange, and the tokens go
 * to the token file. Resolves 'refreshed' when stored tokens could simply be refreshed.
 */
export async function signIn(o: SignInOptions): Promise<'signed-in' | 'refreshed'> {
  const fixed = o.config.redirectUri ? new URL(o.config.redirectUri) : undefined;
  const path = fixed?.pathname ?? DEFAULT_PATH;
  // The callback carries the authorization code: only this machine may reach it, whatever the setting says.
  if (fixed && !isLoopbackHostname(fixed.hostname)) {
    o.say(`Warning: oauth.redirectUri names ${fixed.hostname}, not this machine; listening on 127.0.0.1 only.`);
  }
  const listener = await listen(fixed ? Number(fixed.port) : 0, callbackBindHost(fixed?.hostname));
  try {
    const port = (listener.address() as AddressInfo).port;
    const redirectUrl = fixed ? fixed.href : `http://127.0.0.1:${port}${path}`;
    const provider = new StoredOAuthProvider(new TokenStore(o.config.tokenFile), {
      config: o.config,
      serverUrl: o.serverUrl,
      redirectUrl,
      onAuthorizationUrl: (url) => {
        if (!isOpenableAuthorizationUrl(url)) {
          o.say(
            `Warning: the server's authorization URL is not https (nor http to this machine); it was not opened.\n` +
              `Open it yourself only if you trust it:\n${url.href}`,
          );
          return;
        }
        const opened = o.openBrowser && openInBrowser(url.href);
        o.say(
          `${opened ? 'Opened your browser to sign in. If it did not open, visit' : 'To sign in, open'}:\n${url.href}`,
        );
      },
    });
    const code = waitForCode(listener, path, provider.expectedState, o.signal, o.timeoutMs ?? 300_000);
    const first = await auth(provider, { serverUrl: o.serverUrl });
    if (first === 'AUTHORIZED') {
      code.catch(() => undefined);
      return 'refreshed';
    }
    const authorizationCode = await code;
    const done = await auth(provider, { serverUrl: o.serverUrl, authorizationCode });
    if (done !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens');
    return 'signed-in';
  } finally {
    listener.close();
    listener.closeAllConnections();
  }
}

function listen(port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** The code the browser brings back; the `state` must be ours (a forged redirect is refused). */
function waitForCode(server: Server, path: string, state: string, signal: AbortSignal, timeoutMs: number) {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out waiting for the browser sign-in')), timeoutMs);
    timer.unref();
    const stop = (err: Error) => (clearTimeout(timer), reject(err));
    signal.addEventListener('abort', () => stop(new Error('sign-in cancelled')), { once: true });
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== path) return void res.writeHead(404).end();
      const error = url.searchParams.get('error');
      const code = url.searchParams.get('code');
      const ok = !error && code && url.searchParams.get('state') === state;
      res.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(ok ? 'Signed in. You can close this tab and return to the terminal.\n' : 'Sign-in failed.\n');
      if (ok) return clearTimeout(timer), resolve(code);
      const why = error
        ? `${error}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`
        : "the redirect did not carry this sign-in's state";
      stop(new Error(`sign-in refused (${why})`));
    });
  });
}

/**
 * The system's URL opener, without a shell (the URL is one argument); false when there is none to try.
 * Callers pass only URLs `isOpenableAuthorizationUrl` accepted.
 */
function openInBrowser(url: string): boolean {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
