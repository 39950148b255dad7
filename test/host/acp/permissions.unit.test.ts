import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { AcpConfirmer } from '../../../host/acp/permissions.js';
import type { ConfirmationRequest, ToolRef } from '../../../host/scheduler/types.js';
import type { ConfirmationDetail } from '../../../protocol/confirmation.js';

const tool = (exposedName: string, serverAlias = 'shell'): ToolRef => ({
  exposedName,
  serverAlias,
  toolName: exposedName,
  description: '',
  inputSchema: { type: 'object' },
  readOnly: false,
  confirmsInCall: true,
  trusted: false,
  builtIn: true,
});
const exec = (command: string, rootCommands: string[]): ConfirmationRequest => ({
  source: 'elicitation',
  callId: 'c1',
  tool: tool('run_shell_command'),
  args: { command },
  message: command,
  detail: { kind: 'exec', title: 'Run', command, rootCommands },
});
const edit = (file: string, name = 'write_file'): ConfirmationRequest => ({
  source: 'elicitation',
  callId: 'c2',
  tool: tool(name, 'filesystem'),
  args: { file_path: file },
  message: 'edit',
  detail: { kind: 'edit', title: 'Edit', filePath: file, originalContent: 'a', newContent: 'b' } as ConfirmationDetail,
});
const preCall = (name: string): ConfirmationRequest => ({
  source: 'pre-call',
  callId: 'c3',
  tool: tool(name, 'other'),
  args: {},
  title: `Allow ${name}?`,
});
const plan: ConfirmationRequest = {
  source: 'elicitation',
  callId: 'c4',
  tool: tool('exit_plan_mode', 'memory'),
  args: {},
  message: 'plan',
  detail: { kind: 'plan', title: 'Plan', prompt: 'do it', filePath: '/w/plan.md' },
};

/** A fake editor: answers each request with the next scripted option (or an error), and records what it was asked. */
function editor(answers: (string | 'cancelled' | Error)[]) {
  const asked: acp.RequestPermissionRequest[] = [];
  const ask = async (params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> => {
    asked.push(params);
    const next = answers.shift();
    if (next instanceof Error) throw next;
    if (next === undefined) throw new Error('asked more often than scripted');
    return next === 'cancelled'
      ? { outcome: { outcome: 'cancelled' } }
      : { outcome: { outcome: 'selected', optionId: next } };
  };
  return { asked, confirmer: new AcpConfirmer(() => 'sess-1', '/w', ask) };
}
const signal = () => new AbortController().signal;

describe('AcpConfirmer', () => {
  it('asks with four options and the session id; allow once proceeds once', async () => {
    const { asked, confirmer } = editor(['allow_once']);
    expect(await confirmer.confirm(exec('git status', ['git']), signal())).toEqual({ decision: 'proceed_once' });
    expect(asked[0]?.sessionId).toBe('sess-1');
    expect(asked[0]?.options.map((o) => o.optionId)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
      'reject_always',
    ]);
    expect(asked[0]?.toolCall.toolCallId).toBe('c1');
  });

  it('a plan offers only allow and reject', async () => {
    const { asked, confirmer } = editor(['allow_once']);
    await confirmer.confirm(plan, signal());
    expect(asked[0]?.options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
  });

  it('allow always: a pre-call ask widens to the tool; a server question stays as asked', async () => {
    const { confirmer } = editor(['allow_always', 'allow_always']);
    expect(await confirmer.confirm(preCall('deploy'), signal())).toEqual({ decision: 'proceed_always', scope: 'tool' });
    expect(await confirmer.confirm(exec('git push', ['git']), signal())).toEqual({ decision: 'proceed_always' });
  });

  it('reject always stops asking for the same root commands only', async () => {
    const { asked, confirmer } = editor(['reject_always', 'allow_once']);
    expect(await confirmer.confirm(exec('rm -rf build', ['rm']), signal())).toEqual({ decision: 'cancel' });
    expect(await confirmer.confirm(exec('rm x', ['rm']), signal())).toEqual({ decision: 'cancel' });
    expect(asked).toHaveLength(1);
    expect(await confirmer.confirm(exec('rm x && ls', ['rm', 'ls']), signal())).toEqual({ decision: 'proceed_once' });
    expect(asked).toHaveLength(2);
  });

  it("reject always for an edit covers every edit of that server, not other servers' tools", async () => {
    const { asked, confirmer } = editor(['reject_always', 'allow_once']);
    await confirmer.confirm(edit('/w/a.ts'), signal());
    expect(await confirmer.confirm(edit('/w/b.ts', 'replace'), signal())).toEqual({ decision: 'cancel' });
    expect(asked).toHaveLength(1);
    expect(await confirmer.confirm(preCall('write_file'), signal())).toEqual({ decision: 'proceed_once' });
  });

  it('reject once, an unknown option, a cancelled outcome and an editor error all cancel, and ask again next time', async () => {
    const { asked, confirmer } = editor([
      'reject_once',
      'made_up',
      'cancelled',
      new Error('editor gone'),
      'allow_once',
    ]);
    for (let i = 0; i < 4; i++) expect(await confirmer.confirm(preCall('t'), signal())).toEqual({ decision: 'cancel' });
    expect(await confirmer.confirm(preCall('t'), signal())).toEqual({ decision: 'proceed_once' });
    expect(asked).toHaveLength(5);
  });

  it('an aborted turn cancels without asking', async () => {
    const { asked, confirmer } = editor([]);
    const ac = new AbortController();
    ac.abort();
    expect(await confirmer.confirm(preCall('t'), ac.signal)).toEqual({ decision: 'cancel' });
    expect(asked).toEqual([]);
    expect(confirmer.rejectionContinuesTurn).toBe(true);
  });
});
