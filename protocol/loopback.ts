import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * A host name that can only mean this machine: `localhost`, or an IP address in a loopback range
 * (127.0.0.0/8, ::1, and IPv4-mapped ::ffff:127.x); brackets of a URL's IPv6 host are allowed. Judged
 * on the parsed address, never on text: `127.evil.com` is a name anyone's DNS answers for.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (!isIP(h)) return false;
  try {
    return ipaddr.process(h).range() === 'loopback';
  } catch {
    return false;
  }
}
