import { describe, expect, it } from 'vitest';
import { parseApprovalMode } from '../../../host/policy/approval-mode.js';
import { PolicyEngine } from '../../../host/policy/policy-engine.js';

describe('parseApprovalMode: the one parser for the flag, tools call and settings', () => {
  it("reads Gemini CLI's spellings and ours, plan included", () => {
    expect(parseApprovalMode('default')).toBe('default');
    expect(parseApprovalMode('auto_edit')).toBe('autoEdit');
    expect(parseApprovalMode('autoEdit')).toBe('autoEdit');
    expect(parseApprovalMode('yolo')).toBe('yolo');
    expect(parseApprovalMode('plan')).toBe('plan');
  });

  it('refuses anything else, including inherited object keys', () => {
    for (const raw of ['AUTO_EDIT', 'auto-edit', '', 'toString', '__proto__', undefined]) {
      expect(parseApprovalMode(raw)).toBeUndefined();
    }
  });
});

describe('an untrusted folder stays in default or plan (decided by policy alone)', () => {
  const engine = (approvalMode: 'default' | 'autoEdit' | 'yolo' | 'plan', untrustedFolder: boolean) =>
    new PolicyEngine({ approvalMode, untrustedFolder, interactive: true });

  it('a refused starting mode starts in default and says which mode was refused', () => {
    for (const mode of ['autoEdit', 'yolo'] as const) {
      const p = engine(mode, true);
      expect(p.getApprovalMode()).toBe('default');
      expect(p.startRefused).toBe(mode);
    }
  });

  it('default and plan start as asked; a trusted folder starts in any mode', () => {
    expect(engine('plan', true).getApprovalMode()).toBe('plan');
    expect(engine('plan', true).startRefused).toBeUndefined();
    expect(engine('yolo', false).getApprovalMode()).toBe('yolo');
    expect(engine('yolo', false).startRefused).toBeUndefined();
  });

  it('switching to a mode that adds permissions is refused later too', () => {
    const p = engine('default', true);
    expect(() => p.setApprovalMode('autoEdit')).toThrow(/not trusted/);
    p.setApprovalMode('plan');
    expect(p.getApprovalMode()).toBe('plan');
  });
});
