import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Address ranges a web fetch must not reach by default: loopback, private, link-local, non-unicast. */
const BLOCKED = (() => {
  const list = new BlockList();
  const v4: Array<[string, number]> = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  const v6: Array<[string, number]> = [
    ['::', 128],
    ['::1', 128],
    ['100::', 64],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ];
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
})();

type V4 = ipaddr.IPv4;
type V6 = ipaddr.IPv6;

const v4From = (bytes: number[]): V4 => new ipaddr.IPv4(bytes);

/**
 * The IPv4 addresses an IPv6 address stands for, in every form that reaches an IPv4 host: mapped
 * (`::ffff:0:0/96`), translated (`::ffff:0:0:0/96`), IPv4-compatible (`::/96`), NAT64 (`64:ff9b::/96`),
 * 6to4 (`2002::/16`, bits 16–47) and Teredo (`2001::/32`: the server, and the client with its bits
 * inverted). None for an ordinary IPv6 address.
 */
function embeddedV4(v6: V6): V4[] {
  const b = v6.toByteArray();
  const last32 = v4From(b.slice(12));
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  switch (v6.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [last32];
    case '6to4':
      return [v4From(b.slice(2, 6))];
    case 'teredo':
      return [v4From(b.slice(4, 8)), v4From(b.slice(12).map((x) => x ^ 0xff))];
    default:
      return zeros(0, 12) ? [last32] : [];
  }
}

/** Ranges ipaddr.js names that are public anycast, not local. */
const PUBLIC_RANGES = new Set(['unicast', 'amt', 'as112', 'as112v6']);

function blockedV4(v4: V4): boolean {
  return !PUBLIC_RANGES.has(v4.range()) || BLOCKED.check(v4.toString(), 'ipv4');
}

/**
 * Decides on the address as the network would see it: ipaddr.js parses every textual form (IPv4
 * shorthands, compressed, mixed and zoned IPv6) and each IPv6 form that carries an IPv4 address is
 * judged by that IPv4 address. Only ordinary unicast passes; an unparseable address is blocked.
 */
export function isBlockedAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  let parsed: V4 | V6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv4') return blockedV4(parsed as V4);
  const v6 = parsed as V6;
  const inner = embeddedV4(v6);
  // The local-use NAT64 prefix (64:ff9b:1::/48) embeds addresses at varying offsets: never public.
  if (v6.range() === 'rfc6052' && !v6.match(ipaddr.IPv6.parse('64:ff9b::'), 96)) return true;
  if (inner.length > 0) return inner.some(blockedV4);
  return !PUBLIC_RANGES.has(v6.range()) || BLOCKED.check(v6.toNormalizedString(), 'ipv6');
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

/**
 * At most `limit` requests per host within `windowMs`: politeness toward the hosts fetched from, who see
 * one client in the server process whatever its sessions (the entry shares one limiter among them).
 */
export class HostRateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 60_000,
    /**
     * How many hosts are kept before those whose requests have all left the window are forgotten: one
     * process serves every session of a shared server, which meets new hosts for as long as it runs.
     */
    private readonly sweepAt = 256,
  ) {}

  /** Records a request to `host` and says whether it is within the limit. */
  take(host: string, now = Date.now()): boolean {
    const recent = (this.hits.get(host) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(host, recent);
      return false;
    }
    recent.push(now);
    if (!this.hits.has(host) && this.hits.size >= this.sweepAt) this.forgetIdle(now);
    this.hits.set(host, recent);
    return true;
  }

  /** How many hosts the limiter keeps track of. */
  get hostCount(): number {
    return this.hits.size;
  }

  private forgetIdle(now: number): void {
    for (const [host, times] of this.hits) {
      if (times.every((t) => now - t >= this.windowMs)) this.hits.delete(host);
    }
  }

  /** Gives back the latest request to `host` (a call the user declined made none). */
  refund(host: string): void {
    this.hits.get(host)?.pop();
  }
}
