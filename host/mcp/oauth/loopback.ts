import { isLoopbackHostname } from '../../../protocol/loopback.js';

/**
 * Whether an authorization URL a remote server's metadata named may go to the system opener: `https:`, or
 * `http:` to this machine. Anything else (`file:`, custom schemes an app registered, plain `http:` across
 * the network) hands a hostile server a program launch or a credential leak, so it is only shown.
 */
export function isOpenableAuthorizationUrl(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHostname(url.hostname);
}

/** The address the callback listener binds: the configured host when it is loopback, else 127.0.0.1. */
export function callbackBindHost(hostname: string | undefined): string {
  if (!hostname || !isLoopbackHostname(hostname)) return '127.0.0.1';
  return hostname.replace(/^\[|\]$/g, '');
}
