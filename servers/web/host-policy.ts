import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/** Address ranges a web fetch must not reach by default: loopback, private, link-local, non-unicast. */
const BLOCKED = (() => {
  const list = new BlockList();
  const v4: Array<[string, number]> = [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
    ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16],
    ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  const v6: Array<[string, number]> = [
    ['::', 128], ['::1', 128], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
  ];
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
})();

/** The IPv4 address embedded in an IPv4-mapped, -compatible or NAT64 IPv6 address, if any. */
function embeddedV4(v6: string): string | undefined {
  const m = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(v6);
  if (m) return m[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(v6);
  if (!hex) return undefined;
  const a = parseInt(hex[1], 16);
  const b = parseInt(hex[2], 16);
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(address);
    if (v4) return BLOCKED.check(v4, 'ipv4');
    return BLOCKED.check(address, 'ipv6');
  }
  return false;
}

/** URL hostname without IPv6 brackets, lowercased, without a trailing dot. */
function bareHost(hostname: string): string {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return host.toLowerCase().replace(/\.$/, '');
}

/** Private without asking DNS: `localhost` names and literal private addresses. */
export function isPrivateLiteral(hostname: string): boolean {
  const host = bareHost(hostname);
  return host === 'localhost' || host.endsWith('.localhost') || isBlockedAddress(host);
}

/**
 * Whether a host is private: a literal one, or a name any of whose DNS addresses is private (a
 * public name pointing inside must not open the local network). A name that does not resolve is
 * not blocked here; its fetch fails on its own.
 */
export async function isPrivateHost(hostname: string): Promise<boolean> {
  if (isPrivateLiteral(hostname)) return true;
  const host = bareHost(hostname);
  if (isIP(host)) return false;
  try {
    const addresses = await lookup(host, { all: true, verbatim: true });
    return addresses.some((a) => isBlockedAddress(a.address));
  } catch {
    return false;
  }
}

/** At most `limit` requests per host within `windowMs`, per server instance. */
export class HostRateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 60_000,
  ) {}

  /** Records a request to `host` and says whether it is within the limit. */
  take(host: string, now = Date.now()): boolean {
    const recent = (this.hits.get(host) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(host, recent);
      return false;
    }
    recent.push(now);
    this.hits.set(host, recent);
    return true;
  }

  /** Gives back the latest request to `host` (a call the user declined made none). */
  refund(host: string): void {
    this.hits.get(host)?.pop();
  }
}
