import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { tempDir } from '../../helpers/tmp.js';
import {
  expectTrackWritten,
  newTrackScript,
  PLAN,
  SPEC,
  TRACK,
  writeConductorExtension,
  writeConductorProject,
} from './conductor-fixture.js';

type Part = { text?: string; functionResponse?: { id?: string; name: string; response: Record<string, unknown> } };
type Body = { contents: { parts: Part[] }[]; systemInstruction?: { parts: { text: string }[] } };

/** The answer each call got, by call id, across every request the model received. */
function answers(bodies: Body[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const b of bodies)
    for (const c of b.contents)
      for (const p of c.parts)
        if (p.functionResponse?.id) out.set(p.functionResponse.id, JSON.stringify(p.functionResponse.response));
  return out;
}

describe("conductor's /conductor:newTrack, end to end with an installed extension", () => {
  const endpoint = scriptedEndpoints();

  it('headless: every tool answers as Gemini CLI 0.61 headless does, and the track files end up in the project', async () => {
    const ws = workspace();
    writeConductorProject(ws.cwd);
    const src = writeConductorExtension(join(tempDir('gmc-conductor-'), 'conductor'));
    const install = await runHost(['extensions', 'install', src, '--consent'], { ws });
    expect(install.code, install.stderr).toBe(0);
    const session = 'conductor-headless';
    const plans = join(defaultProjectTempDir(ws.cwd, {}, ws.home), session, 'plans');
    const ep = await endpoint(...newTrackScript(ws.cwd, plans));
    const r = await runHost(
      ['--approval-mode', 'auto_edit', '--session-id', session, '-p', '/conductor:newTrack add dark mode'],
      { ws, url: ep.url },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`New track '${TRACK}' has been created`);
    const bodies = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    // The command file reached the model, with the description in place of {{args}}.
    const prompt = bodies[0]!.contents
      .at(-1)!
      .parts.map((p) => p.text ?? '')
      .join('');
    expect(prompt).toContain('The track description is: add dark mode');
    expect(prompt).toContain('Call `enter_plan_mode`');
    const got = answers(bodies);
    for (const id of ['r1', 'r2', 'r3']) expect(got.get(id)).not.toContain('error');
    expect(got.get('r2')).toContain('TypeScript, React.');
    expect(got.get('e1')).toContain('Switching to Plan mode.');
    // While planning, the model is told where plans go.
    const system = (b: Body) => b.systemInstruction?.parts.map((p) => p.text).join('') ?? '';
    expect(system(bodies[2]!)).toContain(plans);
    expect(got.get('t1')).toContain('Successfully updated the todo list. The current list is now:');
    expect(got.get('t2')).toContain('3. [in_progress] Draft spec and plan');
    expect(got.get('a1')).toContain('No user is available to answer ask_user');
    expect(got.get('a2')).toContain('No user is available to answer ask_user');
    expect(got.get('a3')).toContain('No user is available to answer ask_user');
    expect(got.get('p1')).toContain('Successfully created and wrote to new file');
    expect(got.get('p2')).toContain('Successfully created and wrote to new file');
    expect(got.get('p3')).toContain('Successfully modified file');
    expect(readFileSync(join(plans, 'spec.md'), 'utf8')).toBe(SPEC);
    expect(readFileSync(join(plans, 'plan.md'), 'utf8')).toBe(PLAN);
    expect(got.get('x1')).toContain(
      'Plan approved. Switching to Auto-Edit mode (edits will be applied automatically).\\n\\nThe approved implementation plan is stored at: ',
    );
    for (const id of ['f1', 'f2', 'f3', 'f4'])
      expect(got.get(id)).toContain('Successfully created and wrote to new file');
    expect(got.get('g1')).toContain('Successfully modified file');
    expect(got.get('t4')).toContain('4. [completed] Write the track files');
    expectTrackWritten(ws.cwd);
    // Nothing was written in the project while planning.
    expect(existsSync(join(ws.cwd, 'spec.md'))).toBe(false);
    expect(existsSync(join(ws.cwd, 'plan.md'))).toBe(false);
  }, 120_000);
});
