import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandCommand } from '../../../host/hooks/hook-runner.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

describe("hook commands name the project's folders", () => {
  const endpoint = scriptedEndpoints();

  it('bare, double-quoted (Claude Code’s documented form) and inside-a-quoted-path variables all run, in a folder with a space', async () => {
    const ws = workspace();
    const project = join(ws.cwd, 'my app');
    const stamps = join(ws.home, 'stamps.log');
    mkdirSync(join(project, '.gemini', 'hooks'), { recursive: true });
    const script = join(project, '.gemini', 'hooks', 'stamp.sh');
    writeFileSync(script, `#!/bin/sh\nprintf '%s|%s\\n' "$1" "$2" >> '${stamps}'\n`);
    chmodSync(script, 0o755);
    const commands = [
      '"$CLAUDE_PROJECT_DIR"/.gemini/hooks/stamp.sh dq',
      '$GEMINI_PROJECT_DIR/.gemini/hooks/stamp.sh bare',
      '"$GEMINI_PROJECT_DIR/.gemini/hooks/stamp.sh" inner "$GEMINI_PLANS_DIR"',
      "'$GEMINI_CWD'/.gemini/hooks/stamp.sh single",
    ];
    ws.settings({
      ...ONLY(),
      hooks: { BeforeAgent: [{ sequential: true, hooks: commands.map((command) => ({ type: 'command', command })) }] },
    });
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'hi'], { ws: { ...ws, cwd: project }, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(stamps, 'utf8').trim().split('\n');
    expect(lines.map((l) => l.split('|')[0])).toEqual(['dq', 'bare', 'inner', 'single']);
    expect(lines[2]).toMatch(/^inner\|\/.+\/[0-9a-f-]{36}\/plans$/);
  });
});

describe('expandCommand', () => {
  const ctx = { cwd: "/w/it's here", sessionId: 's1', plansDir: '/t/s1/plans' };

  it('quotes outside quotes, leaves double-quoted ones to the shell, keeps escapes and other names', () => {
    expect(expandCommand('$GEMINI_PROJECT_DIR/x.sh', ctx)).toBe(`'/w/it'\\''s here'/x.sh`);
    expect(expandCommand('"$GEMINI_PROJECT_DIR"/x.sh', ctx)).toBe('"$GEMINI_PROJECT_DIR"/x.sh');
    expect(expandCommand('"a" $GEMINI_SESSION_ID "b $GEMINI_CWD"', ctx)).toBe(`"a" 's1' "b $GEMINI_CWD"`);
    expect(expandCommand('\\$GEMINI_CWD $GEMINI_CWDX $HOME', ctx)).toBe('\\$GEMINI_CWD $GEMINI_CWDX $HOME');
    expect(expandCommand('"\\"" $GEMINI_PLANS_DIR', ctx)).toBe(`"\\"" '/t/s1/plans'`);
    expect(expandCommand('$GEMINI_PLANS_DIR', { cwd: '/w', sessionId: 's' })).toBe('$GEMINI_PLANS_DIR');
    expect(expandCommand("'$GEMINI_SESSION_ID'", ctx)).toBe("'''s1'''");
  });
});
