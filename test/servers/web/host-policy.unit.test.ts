import { describe, expect, it } from 'vitest';
import {
  HostRateLimiter,
  isBlockedAddress,
  isPrivateHost,
  isPrivateLiteral,
} from '../../../servers/web/host-policy.js';

describe('isBlockedAddress: IPv6 forms that carry an IPv4 address are judged by it', () => {
  it('6to4 (2002::/16) embeds the address in bits 16-47', () => {
    expect(isBlockedAddress('2002:7f00:1::')).toBe(true); // 127.0.0.1
    expect(isBlockedAddress('2002:c0a8:101::1')).toBe(true); // 192.168.1.1
    expect(isBlockedAddress('2002:808:808::')).toBe(false); // 8.8.8.8
  });

  it('Teredo: the client address is stored inverted', () => {
    // client 127.0.0.1 inverted is 80ff:fffe
    expect(isBlockedAddress('2001:0:4136:e378:8000:63bf:80ff:fffe')).toBe(true);
    // client 8.8.8.8 inverted is f7f7:f7f7, server 65.54.227.120 is public
    expect(isBlockedAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7')).toBe(false);
    // a private Teredo server is enough to block
    expect(isBlockedAddress('2001:0:a00:1:8000:63bf:f7f7:f7f7')).toBe(true);
  });

  it('IPv4-compatible, translated and NAT64 forms', () => {
    expect(isBlockedAddress('::7f00:1')).toBe(true);
    expect(isBlockedAddress('::808:808')).toBe(false);
    expect(isBlockedAddress('::ffff:0:7f00:1')).toBe(true);
    expect(isBlockedAddress('64:ff9b::808:808')).toBe(false);
    // the local-use NAT64 prefix is never public, whatever it seems to embed
    expect(isBlockedAddress('64:ff9b:1::808:808')).toBe(true);
  });

  it('documentation, benchmarking and discard ranges are blocked; public anycast is not', () => {
    for (const a of ['192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '2001:db8::1', '100::1', '240.0.0.1'])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ['2606:4700::1111', '9.9.9.9', '192.88.98.1']) expect(isBlockedAddress(a), a).toBe(false);
  });

  it('a zoned link-local address is blocked; a name is not an address', () => {
    expect(isBlockedAddress('fe80::1%eth0')).toBe(true);
    expect(isBlockedAddress('example.com')).toBe(false);
  });
});

describe('isPrivateLiteral: private without asking DNS', () => {
  it('localhost names in any case, with a trailing dot, and subdomains of localhost', () => {
    for (const h of ['localhost', 'LOCALHOST', 'localhost.', 'a.b.localhost', 'x.Localhost.'])
      expect(isPrivateLiteral(h), h).toBe(true);
  });

  it('bracketed IPv6 literals as URL hostnames carry them', () => {
    expect(isPrivateLiteral('[::1]')).toBe(true);
    expect(isPrivateLiteral('[::ffff:7f00:1]')).toBe(true);
    expect(isPrivateLiteral('[fe80::1]')).toBe(true);
    expect(isPrivateLiteral('[2606:4700::1111]')).toBe(false);
  });

  it('names that only contain "localhost" or an address are left to DNS', () => {
    for (const h of ['localhost.example.com', 'notlocalhost', '127.0.0.1.nip.io', 'example.com'])
      expect(isPrivateLiteral(h), h).toBe(false);
  });

  it('what the URL parser makes of shorthand IPv4 hosts is caught', () => {
    for (const u of ['http://0x7f000001/', 'http://2130706433/', 'http://127.1/', 'http://0177.0.0.1/'])
      expect(isPrivateLiteral(new URL(u).hostname), u).toBe(true);
  });
});

describe('isPrivateHost', () => {
  it('decides literals without a lookup', async () => {
    expect(await isPrivateHost('localhost')).toBe(true);
    expect(await isPrivateHost('[::1]')).toBe(true);
    expect(await isPrivateHost('10.1.2.3')).toBe(true);
    expect(await isPrivateHost('8.8.8.8')).toBe(false);
    expect(await isPrivateHost('[2606:4700::1111]')).toBe(false);
  });
});

describe('HostRateLimiter', () => {
  it('a refund gives back the latest request, and only to that host', () => {
    const rl = new HostRateLimiter(1, 1000);
    expect(rl.take('a', 0)).toBe(true);
    expect(rl.take('a', 10)).toBe(false);
    rl.refund('b');
    expect(rl.take('a', 20)).toBe(false);
    rl.refund('a');
    expect(rl.take('a', 30)).toBe(true);
  });

  it('forgets hosts whose requests have all left the window once it keeps many, and only those', () => {
    const rl = new HostRateLimiter(2, 100, 8);
    for (let i = 0; i < 8; i++) expect(rl.take(`old${i}.example`, 0)).toBe(true);
    expect(rl.take('recent.example', 50)).toBe(true);
    expect(rl.hostCount).toBe(9);
    // At 120 the first eight have left the window; the ninth host has not.
    expect(rl.take('new.example', 120)).toBe(true);
    expect(rl.hostCount).toBe(2);
    expect(rl.take('recent.example', 121)).toBe(true);
    expect(rl.take('recent.example', 122)).toBe(false);
  });

  it('the window slides: a request leaves it exactly windowMs later', () => {
    const rl = new HostRateLimiter(2, 100);
    expect([rl.take('h', 0), rl.take('h', 50), rl.take('h', 99), rl.take('h', 100), rl.take('h', 120)]).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
  });
});
