import { describe, expect, it } from 'vitest';
import { callbackBindHost, isOpenableAuthorizationUrl } from '../../../../host/mcp/oauth/loopback.js';

describe('isOpenableAuthorizationUrl', () => {
  it('https anywhere, http only to this machine', () => {
    const ok = [
      'https://auth.example.com/authorize',
      'http://localhost:8080/a',
      'http://127.0.0.1/a',
      'http://[::1]:9/a',
    ];
    for (const u of ok) expect(isOpenableAuthorizationUrl(new URL(u)), u).toBe(true);
  });

  it('plain http across the network, files and custom schemes are only shown, never opened', () => {
    const bad = [
      'http://auth.example.com/authorize',
      'http://localhost.evil.com/a',
      'http://127.0.0.1.nip.io/a',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'vscode://extension/install',
      'smb://host/share',
    ];
    for (const u of bad) expect(isOpenableAuthorizationUrl(new URL(u)), u).toBe(false);
  });
});

describe('callbackBindHost', () => {
  it('a loopback host as configured (IPv6 without brackets), anything else 127.0.0.1', () => {
    expect(callbackBindHost(undefined)).toBe('127.0.0.1');
    expect(callbackBindHost('localhost')).toBe('localhost');
    expect(callbackBindHost('[::1]')).toBe('::1');
    expect(callbackBindHost('0.0.0.0')).toBe('127.0.0.1');
    expect(callbackBindHost('example.com')).toBe('127.0.0.1');
  });
});
