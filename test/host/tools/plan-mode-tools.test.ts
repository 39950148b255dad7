import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

type Part = { functionResponse?: { id?: string; name: string; response: Record<string, unknown> } };
type Body = {
  contents: { parts: Part[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
  systemInstruction?: { parts: { text: string }[] };
};

/** The answer each call got, by call id, across every request the model received. */
function answers(bodies: Body[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const b of bodies)
    for (const c of b.contents)
      for (const p of c.parts)
        if (p.functionResponse?.id) out.set(p.functionResponse.id, JSON.stringify(p.functionResponse.response));
  return out;
}

const declared = (b: Body) => b.tools?.flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name) ?? [];

describe("Gemini CLI's enter_plan_mode / exit_plan_mode, headless", () => {
  const endpoint = scriptedEndpoints();

  it('the model enters plan mode, may write only its plan under the plans folder, and an approved plan returns to the mode the user was in', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const session = 'plan-session-1';
    const plans = join(defaultProjectTempDir(ws.cwd, {}, ws.home), session, 'plans');
    // A link planted in the plans folder that leads back into the project must not let plan mode write there.
    const victim = ws.file('victim.md', 'original\n');
    mkdirSync(plans, { recursive: true });
    symlinkSync(victim, join(plans, 'link.md'));
    const source = join(ws.cwd, 'src.ts');
    const plan = join(plans, 'feature-x.md');
    const ep = await endpoint(
      reply.calls({ id: 'e1', name: 'enter_plan_mode', args: { reason: 'broad change' } }),
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: source, content: 'early\n' } }),
      reply.calls({
        id: 'w2',
        name: 'filesystem__write_file',
        args: { file_path: join(plans, 'link.md'), content: 'x' },
      }),
      reply.calls({
        id: 'w3',
        name: 'filesystem__write_file',
        args: { file_path: plan, content: '# Plan\n1. src.ts\n' },
      }),
      // A bare name is a plan in the plans folder, as in Gemini CLI 0.61's plan mode.
      reply.calls({ id: 'w5', name: 'filesystem__write_file', args: { file_path: 'notes.md', content: 'n\n' } }),
      reply.calls({ id: 'x1', name: 'exit_plan_mode', args: { plan_filename: 'feature-x.md' } }),
      reply.calls({ id: 'w4', name: 'filesystem__write_file', args: { file_path: source, content: 'done\n' } }),
      reply.text('Implemented.'),
    );
    const r = await runHost(['--approval-mode', 'auto_edit', '--session-id', session, '-p', 'build feature x'], {
      ws,
      url: ep.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Implemented.');
    const bodies = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    const got = answers(bodies);
    expect(got.get('e1')).toContain('Switching to Plan mode.');
    expect(got.get('w1')).toContain('You are in Plan Mode and cannot modify source code.');
    expect(got.get('w2')).toContain('You are in Plan Mode and cannot modify source code.');
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
    expect(got.get('w3')).toContain('Successfully created and wrote to new file');
    expect(readFileSync(plan, 'utf8')).toBe('# Plan\n1. src.ts\n');
    expect(got.get('w5')).toContain('Successfully created and wrote to new file');
    expect(readFileSync(join(plans, 'notes.md'), 'utf8')).toBe('n\n');
    expect(existsSync(join(ws.cwd, 'notes.md'))).toBe(false);
    // While planning the model is told where its plan goes; once approved, no more.
    const system = (b: Body) => b.systemInstruction?.parts.map((p) => p.text).join('') ?? '';
    expect(system(bodies[1]!)).toContain(
      `restricted to only modifying plan (.md) files in the plans directory: ${plans}/`,
    );
    expect(system(bodies[0]!)).not.toContain('Plan Mode');
    expect(system(bodies[6]!)).not.toContain('Plan Mode');
    // Once approved, the plan is the model's source of truth for the rest of the session, as in 0.61.
    expect(system(bodies[6]!)).toContain(`An approved plan is available for this task at \`${plan}\``);
    expect(system(bodies[5]!)).not.toContain('An approved plan');
    expect(got.get('x1')).toContain(
      'Plan approved. Switching to Auto-Edit mode (edits will be applied automatically).\\n\\nThe approved implementation plan is stored at: ',
    );
    expect(got.get('x1')).toContain(plan);
    expect(got.get('w4')).toContain('Successfully created and wrote to new file');
    expect(readFileSync(source, 'utf8')).toBe('done\n');
    // Each switch is offered only where it means something: enter outside plan mode, exit inside it.
    expect(declared(bodies[0]!)).toContain('enter_plan_mode');
    expect(declared(bodies[0]!)).not.toContain('exit_plan_mode');
    expect(declared(bodies[1]!)).toContain('exit_plan_mode');
    expect(declared(bodies[1]!)).not.toContain('enter_plan_mode');
    expect(declared(bodies[1]!)).toContain('filesystem__write_file');
    expect(declared(bodies[6]!)).toContain('enter_plan_mode');
  });

  it('exit_plan_mode refuses a plan outside the plans folder, a missing, empty or non-regular plan, and a call outside plan mode, in 0.61 words', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('notes.md', '# not a plan\n');
    const plans = join(defaultProjectTempDir(ws.cwd, {}, ws.home), 'plan-session-2', 'plans');
    mkdirSync(plans, { recursive: true });
    writeFileSync(join(plans, 'empty.md'), '  \n');
    // A named pipe with no writer would hang a plain read.
    execFileSync('mkfifo', [join(plans, 'pipe.md')]);
    const ep = await endpoint(
      reply.calls({ id: 'x0', name: 'exit_plan_mode', args: { plan_filename: 'p.md' } }),
      reply.calls({ id: 'e1', name: 'enter_plan_mode', args: {} }),
      reply.calls({ id: 'e2', name: 'enter_plan_mode', args: {} }),
      reply.calls({ id: 'x1', name: 'exit_plan_mode', args: { plan_filename: '../../../../../notes.md' } }),
      reply.calls({ id: 'x2', name: 'exit_plan_mode', args: { plan_filename: 'missing.md' } }),
      reply.calls({ id: 'x3', name: 'exit_plan_mode', args: { plan_filename: 'empty.md' } }),
      reply.calls({ id: 'x4', name: 'exit_plan_mode', args: { plan_filename: 'pipe.md' } }),
      reply.text('ok'),
    );
    const r = await runHost(['--session-id', 'plan-session-2', '-p', 'plan it'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const got = answers(ep.requestsOf('streamGenerateContent').map((q) => q.body as Body));
    expect(got.get('x0')).toContain('You are not currently in Plan Mode. Use enter_plan_mode first to design a plan.');
    expect(got.get('e1')).toContain('Switching to Plan mode.');
    expect(got.get('e2')).toContain('You are already in Plan Mode.');
    expect(got.get('x1')).toContain(
      'Access denied: plan path (../../../../../notes.md) must be within the designated plans directory',
    );
    expect(got.get('x2')).toContain(
      'Plan file does not exist: missing.md. You must create the plan file before requesting approval.',
    );
    expect(got.get('x3')).toContain(
      'Plan file is empty. You must write content to the plan file before requesting approval.',
    );
    expect(got.get('x4')).toContain('Failed to read plan file:');
    expect(got.get('x4')).toContain('named pipe');
    expect(existsSync(join(ws.cwd, 'notes.md'))).toBe(true);
  });
});
