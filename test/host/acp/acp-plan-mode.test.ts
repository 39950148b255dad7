import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { startAcp } from './acp-client.js';

type Part = { functionResponse?: { id?: string; response: Record<string, unknown> } };
type Body = { contents: { parts: Part[] }[] };

describe('plan mode over ACP: the model enters it, the editor approves the plan', () => {
  const endpoint = scriptedEndpoints();

  it('exit_plan_mode asks the editor with the plan (allow / reject only); the mode follows in current_mode_update', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const ep = await endpoint(
      reply.calls({ id: 'e1', name: 'enter_plan_mode', args: { reason: 'risky' } }),
      reply.calls({ id: 'x1', name: 'exit_plan_mode', args: { plan_filename: 'plan.md' } }),
      reply.text('Still planning.'),
      reply.calls({ id: 'x2', name: 'exit_plan_mode', args: { plan_filename: 'plan.md' } }),
      reply.text('Implementing.'),
    );
    // The first question is rejected, the second approved.
    const run = startAcp({
      ws,
      url: ep.url,
      permission: () => (run.permissions.length === 1 ? 'reject_once' : 'allow_once'),
    });
    try {
      const sessionId = await run.open(ws.cwd);
      const plans = join(defaultProjectTempDir(ws.cwd, {}, ws.home), sessionId, 'plans');
      mkdirSync(plans, { recursive: true });
      const plan = join(plans, 'plan.md');
      writeFileSync(plan, '# The plan\n1. Change the parser.\n');
      await run.prompt(sessionId, 'plan the parser change');
      expect(run.updatesOf(sessionId, 'current_mode_update')).toEqual([
        { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
      ]);
      await run.prompt(sessionId, 'the plan is fine now');
      expect(run.permissions).toHaveLength(2);
      const asked = run.permissions[0]!;
      expect(asked.options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
      expect(asked.toolCall).toMatchObject({ toolCallId: 'x1', kind: 'switch_mode', title: 'Plan Approval' });
      expect(asked.toolCall.locations).toEqual([{ path: plan }]);
      expect(JSON.stringify(asked.toolCall.content)).toContain('1. Change the parser.');
      // Approved: back to the mode the editor was in before the model started planning.
      expect(run.updatesOf(sessionId, 'current_mode_update')).toEqual([
        { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
        { sessionUpdate: 'current_mode_update', currentModeId: 'default' },
      ]);
      const got = new Map<string, string>();
      for (const q of ep.requestsOf('streamGenerateContent'))
        for (const c of (q.body as Body).contents)
          for (const p of c.parts)
            if (p.functionResponse?.id) got.set(p.functionResponse.id, JSON.stringify(p.functionResponse.response));
      expect(got.get('x1')).toContain(
        'User cancelled the plan approval dialog. The plan was not approved and you are still in Plan Mode.',
      );
      expect(got.get('x2')).toContain('Plan approved. Switching to Default mode (edits will require confirmation).');
    } finally {
      await run.close();
    }
  });
});
