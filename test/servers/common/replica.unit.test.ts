import { describe, expect, it } from 'vitest';
import { defaultReplicaId, mintSessionId, validReplicaId } from '../../../servers/common/replica.js';

describe('validReplicaId', () => {
  it('letters, digits, - and _, 1 to 64 characters; never the . separator', () => {
    expect(['a', 'web-1', 'A_b-9', 'x'.repeat(64)].map(validReplicaId)).toEqual([true, true, true, true]);
    expect(['', 'x'.repeat(65), 'a.b', 'a b', 'a/b', 'ü', 'a\n'].map(validReplicaId)).toEqual(Array(7).fill(false));
  });
});

describe('defaultReplicaId', () => {
  it('hostname-pid, with other characters folded to - and the name cut to 40', () => {
    expect(defaultReplicaId('web01.prod.example.com', 42)).toBe('web01-prod-example-com-42');
    expect(defaultReplicaId('h'.repeat(100), 7)).toBe(`${'h'.repeat(40)}-7`);
    expect(defaultReplicaId('', 7)).toBe('replica-7');
    expect(validReplicaId(defaultReplicaId('ünïcode host.local', 123456))).toBe(true);
  });

  it('is valid for this machine', () => {
    expect(validReplicaId(defaultReplicaId())).toBe(true);
  });
});

describe('mintSessionId', () => {
  it('<replica>.<uuid>: the prefix routes, the rest is random', () => {
    const a = mintSessionId('web-1');
    const b = mintSessionId('web-1');
    expect(a).toMatch(/^web-1\.[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    expect(a.split('.')[0]).toBe('web-1');
  });
});
