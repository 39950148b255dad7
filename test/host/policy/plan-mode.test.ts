import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FunctionDeclaration } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { PLAN_WRITE_DENIAL } from '../../../host/policy/plan-files.js';
import { ALREADY_PLANNING, NOT_PLANNING, PLAN_MODE_DENIAL, PolicyEngine } from '../../../host/policy/policy-engine.js';
import { tempDir } from '../../helpers/tmp.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { toolRef } from './tool-ref.js';

const ref = toolRef;

describe('plan mode: only read-only tools and writes of the plan are allowed', () => {
  const endpoint = scriptedEndpoints();

  it('policy: read-only tools run; every other class is denied with the plan-mode text, allow rules and trust included', async () => {
    for (const interactive of [true, false]) {
      const p = new PolicyEngine({
        approvalMode: 'plan',
        interactive,
        settings: { tools: { allowed: ['run_shell_command(git)', 'write_file'] } },
      });
      for (const t of [
        ref('filesystem', 'read_file', { readOnly: true }),
        ref('web', 'google_web_search', { readOnly: true }),
        ref('docs', 'lookup', { readOnly: true, trusted: true }),
      ]) {
        expect((await p.decide(t, { args: {} })).decision, t.exposedName).toBe('allow');
        expect(p.isStaticallyDenied(t)).toBe(false);
      }
      for (const t of [
        ref('filesystem', 'write_file'),
        ref('shell', 'run_shell_command'),
        ref('web', 'web_fetch', { readOnly: true }),
        ref('memory', 'save_memory'),
        ref('github', 'create_issue', { trusted: true }),
      ]) {
        const v = await p.decide(t, { args: { command: 'git status' } });
        // The write tools get Gemini CLI's words: they may write plans only (none here: no plans folder).
        const message = t.toolName === 'write_file' ? PLAN_WRITE_DENIAL : PLAN_MODE_DENIAL;
        expect(v, t.exposedName).toMatchObject({ decision: 'deny', message });
        expect(p.isStaticallyDenied(t), t.exposedName).toBe(true);
        // A server's own mid-call question gets the same answer.
        expect(
          (await p.decide(t, { args: {}, detail: { kind: 'exec', title: 'x', command: 'git status' } })).decision,
        ).toBe('deny');
      }
    }
    const untrusted = new PolicyEngine({ approvalMode: 'default', interactive: true, untrustedFolder: true });
    expect(() => untrusted.setApprovalMode('plan')).not.toThrow();
    expect(() => untrusted.setApprovalMode('autoEdit')).toThrow('stays default or plan');
  });

  it('policy: plan mode writes only .md plans inside the plans folder by real path; the plan tools each where they mean something', async () => {
    const root = tempDir('plan-policy-');
    const plans = join(root, 'tmp', 'session', 'plans');
    const project = join(root, 'proj');
    mkdirSync(plans, { recursive: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'a.md'), 'source\n');
    symlinkSync(join(project, 'a.md'), join(plans, 'link.md'));
    symlinkSync(project, join(plans, 'sub'));
    // A plans folder that is itself a link would make anywhere a plans folder.
    const linked = join(root, 'linked-plans');
    symlinkSync(project, linked);
    const write = ref('filesystem', 'write_file', { builtIn: true });
    const enter = ref('@host', 'enter_plan_mode', { builtIn: true, trusted: true });
    const exit = ref('@host', 'exit_plan_mode', { builtIn: true, trusted: true });
    for (const interactive of [true, false]) {
      const p = new PolicyEngine({ approvalMode: 'plan', interactive });
      p.setPlansFolder(() => plans);
      const at = async (file: string) => (await p.decide(write, { args: { file_path: file } })).decision;
      expect(await at(join(plans, 'plan.md'))).toBe('allow');
      expect(await at(join(plans, 'deep', 'er', 'plan.md'))).toBe('allow');
      for (const bad of [
        join(plans, 'plan.txt'),
        join(plans, 'link.md'),
        join(plans, 'sub', 'new.md'),
        join(plans, '..', 'escape.md'),
        join(project, 'b.md'),
        plans,
      ])
        expect(await at(bad), bad).toBe('deny');
      // The server's own question names the file it will write: that is checked again.
      const detail = { kind: 'edit' as const, title: 'w', filePath: join(project, 'a.md') };
      expect((await p.decide(write, { args: { file_path: join(plans, 'plan.md') }, detail })).decision).toBe('deny');
      expect(p.isStaticallyDenied(write)).toBe(false);
      expect(await p.decide(enter, { args: {} })).toMatchObject({ decision: 'deny', message: ALREADY_PLANNING });
      expect(p.isStaticallyDenied(enter)).toBe(true);
      expect((await p.decide(exit, { args: {} })).decision).toBe(interactive ? 'ask' : 'allow');
      expect(p.isStaticallyDenied(exit)).toBe(false);
      const q = new PolicyEngine({ approvalMode: 'plan', interactive });
      q.setPlansFolder(() => linked);
      expect((await q.decide(write, { args: { file_path: join(linked, 'plan.md') } })).decision).toBe('deny');
      p.setApprovalMode('default');
      expect(await p.decide(exit, { args: {} })).toMatchObject({ decision: 'deny', message: NOT_PLANNING });
      expect(p.isStaticallyDenied(exit)).toBe(true);
      expect((await p.decide(enter, { args: {} })).decision).toBe('allow');
    }
  });

  it('--approval-mode plan: the model sees read-only tools and the write tools (for its plan only); a write outside the plans folder is refused and nothing is written', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem', 'shell'));
    ws.file('a.txt', 'a\n');
    const target = join(ws.cwd, 'plan-output.txt');
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: target, content: 'x' } }),
      reply.text('Here is the plan: 1. write the file.'),
    );
    const r = await runHost(['--approval-mode', 'plan', '-p', 'make a plan', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const declared = (
      ep.requestsOf('streamGenerateContent')[0]!.body.tools as { functionDeclarations: FunctionDeclaration[] }[]
    )[0]!.functionDeclarations.map((d) => d.name);
    expect(declared).toContain('filesystem__read_file');
    expect(declared).toContain('filesystem__glob');
    expect(declared).toContain('filesystem__write_file');
    expect(declared).not.toContain('shell__run_shell_command');
    const answer = JSON.stringify(ep.requestsOf('streamGenerateContent')[1]!.body.contents);
    expect(answer).toContain('You are in Plan Mode and cannot modify source code.');
    expect(existsSync(target)).toBe(false);
    expect(JSON.parse(r.stdout).response).toContain('Here is the plan');
    const bad = await runHost(['--approval-mode', 'planning', '-p', 'x'], { ws, url: ep.url });
    expect(bad.code).toBe(42);
    expect(bad.stderr).toContain('default, auto_edit, yolo, plan');
  });
});
