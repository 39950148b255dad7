import { describe, expect, it } from 'vitest';
import { PolicyEngine } from '../../../host/policy/policy-engine.js';
import { toolRef } from './tool-ref.js';

const shell = (sandboxed: boolean) => toolRef('shell', 'run_shell_command', { confirmsInCall: true, sandboxed });
const args = { command: 'rm -rf build && npm test' };
const decide = (p: PolicyEngine, sandboxed: boolean) => p.decide(shell(sandboxed), { args }).then((v) => v.decision);

describe('tools.sandboxAutoApprove', () => {
  it('allows a sandboxed shell command in default mode only when opted in', async () => {
    const on = new PolicyEngine({ interactive: true, sandboxAutoApprove: true });
    const off = new PolicyEngine({ interactive: true });
    expect(await decide(on, true)).toBe('allow');
    expect(await decide(on, false)).toBe('ask');
    expect(await decide(off, true)).toBe('ask');
  });

  it('deny rules and tools.confirmationRequired still come first; plan mode still denies', async () => {
    const excluded = new PolicyEngine({
      interactive: true,
      sandboxAutoApprove: true,
      settings: { tools: { exclude: ['run_shell_command(rm)'] } },
    });
    expect(await decide(excluded, true)).toBe('deny');
    const confirm = new PolicyEngine({
      interactive: true,
      sandboxAutoApprove: true,
      settings: { tools: { confirmationRequired: ['run_shell_command'] } },
    });
    expect(await decide(confirm, true)).toBe('ask');
    const plan = new PolicyEngine({ interactive: true, sandboxAutoApprove: true, approvalMode: 'plan' });
    expect(await decide(plan, true)).toBe('deny');
  });
});
