import { describe, expect, it } from 'vitest';
import { DEFERRED_CA_CERTS, deferCaCerts, restoreCaCerts } from '../../protocol/deferred-ca-certs.js';

describe('deferred NODE_EXTRA_CA_CERTS', () => {
  it('the host moves it aside and leaves the rest, without touching what it was given', () => {
    const env = { PATH: '/bin', NODE_EXTRA_CA_CERTS: '/etc/corp.pem' };
    expect(deferCaCerts(env)).toEqual({ PATH: '/bin', [DEFERRED_CA_CERTS]: '/etc/corp.pem' });
    expect(env).toEqual({ PATH: '/bin', NODE_EXTRA_CA_CERTS: '/etc/corp.pem' });
    expect(deferCaCerts({ PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  it('the server puts it back and drops the carrier; one set directly wins', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/bin', [DEFERRED_CA_CERTS]: '/etc/corp.pem' };
    restoreCaCerts(env);
    expect(env).toEqual({ PATH: '/bin', NODE_EXTRA_CA_CERTS: '/etc/corp.pem' });
    const both: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/mine.pem', [DEFERRED_CA_CERTS]: '/etc/corp.pem' };
    restoreCaCerts(both);
    expect(both).toEqual({ NODE_EXTRA_CA_CERTS: '/mine.pem' });
    const none: NodeJS.ProcessEnv = { PATH: '/bin' };
    restoreCaCerts(none);
    expect(none).toEqual({ PATH: '/bin' });
  });
});
