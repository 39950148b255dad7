import { oauthTokenFile } from './paths.js';
import type { McpServerSettings } from './settings-schema.js';

/** What OAuth needs of a remote entry's settings; none when it is off or a static Authorization header is set. */
export interface OAuthServerConfig {
  /** The `mcpServers` key: stored tokens are the user's for that name (and its URL). */
  serverName: string;
  tokenFile: string;
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  redirectUri?: string;
}

export function oauthFor(
  name: string,
  entry: McpServerSettings,
  env: NodeJS.ProcessEnv,
  homeDir: string | undefined,
): OAuthServerConfig | undefined {
  const o = entry.oauth ?? {};
  const staticAuth = Object.keys(entry.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
  if (o.enabled === false || (staticAuth && o.enabled !== true)) return undefined;
  return {
    serverName: name,
    tokenFile: oauthTokenFile(env, homeDir),
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    scopes: o.scopes,
    redirectUri: o.redirectUri,
  };
}
