import { describe, expect, it } from 'vitest';
import { textOf } from '../../helpers/mcp.js';
import { isBlockedAddress } from '../../../servers/web/host-policy.js';
import { answer, gemini, startWeb } from './harness.js';

/** Every spelling of a local address that the network would deliver to an IPv4 or IPv6 local host. */
const BLOCKED_URL_HOSTS = [
  '127.0.0.1',
  '127.1',
  '0x7f.0.0.1',
  '2130706433',
  '0177.0.0.1',
  '0.0.0.0',
  '10.0.0.1',
  '100.64.0.1',
  '169.254.169.254',
  '172.16.0.1',
  '192.168.1.1',
  '224.0.0.1',
  '255.255.255.255',
  '[::1]',
  '[::]',
  '[::127.0.0.1]',
  '[::7f00:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::ffff:0:127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[::a9fe:a9fe]',
  '[::ffff:a9fe:a9fe]',
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::1]',
  '[2002:7f00:1::]',
  '[2002:a9fe:a9fe::1]',
  '[2001:0:7f00:1::1]',
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
  '[fe80::1]',
  '[fc00::1]',
  '[fd12:3456::1]',
  '[ff02::1]',
  '[2001:db8::1]',
  '[0:0:0:0:0:0:0:1]',
  '[0000::0001]',
  '[::ffff:10.0.0.1]',
  '[::192.168.0.1]',
];

describe('web_fetch refuses every form of a local address (real server)', () => {
  it('skips each blocked form without contacting anything', async () => {
    const ep = await gemini(() => answer('unused'));
    const s = await startWeb(ep);
    for (const host of BLOCKED_URL_HOSTS) {
      const r = await s.call('web_fetch', { prompt: `read http://${host}/x` });
      expect({ host, text: textOf(r) }).toMatchObject({
        host,
        text: expect.stringMatching(/^All requested URLs were skipped: \[Blocked Host\] http:\/\//),
      });
    }
    expect(ep.requests).toHaveLength(0);
  });

  it('lets public addresses in the same forms through to the model', async () => {
    const ep = await gemini(() => answer('fine'));
    const s = await startWeb(ep);
    for (const host of [
      '93.184.216.34',
      '[2606:4700::1111]',
      '[::ffff:93.184.216.34]',
      '[64:ff9b::5db8:d822]',
      '[2002:5db8:d822::1]',
    ]) {
      const r = await s.call('web_fetch', { prompt: `read http://${host}/x` });
      expect({ host, blocked: textOf(r).includes('[Blocked Host]') }).toEqual({ host, blocked: false });
    }
  });
});

describe('isBlockedAddress on the address forms DNS answers carry', () => {
  const table: [string, boolean][] = [
    ['127.0.0.1', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:0:7f00:1', true],
    ['::a9fe:a9fe', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['2002:c0a8:101::', true],
    ['fe80::1%eth0', true],
    ['2001:0:7f00:1::1', true],
    ['8.8.8.8', false],
    ['2001:4860:4860::8888', false],
    ['::ffff:8.8.8.8', false],
    ['example.com', false],
  ];
  for (const [address, blocked] of table) {
    it(`${address} → ${blocked ? 'blocked' : 'allowed'}`, () => expect(isBlockedAddress(address)).toBe(blocked));
  }
});
