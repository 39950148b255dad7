import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../helpers/gemini-cli.js';
import { ONLY, runHost, scriptedEndpoints, workspace, type Workspace } from '../../helpers/run-host.js';

/**
 * `gemini-mcp hooks migrate --from-claude` as Gemini CLI 0.61's (it was once sent to the model as a prompt):
 * the project's Claude Code hooks become Gemini CLI hooks in .gemini/settings.json, and both our host and
 * Gemini CLI 0.61 then run the migrated hook on the tool it names.
 */
const HOOK = join(import.meta.dirname, '../../fixtures/hooks/record-hook.mjs');
const q = (a: string) => `'${a}'`;

function claudeProject(): Workspace {
  const ws = workspace();
  ws.settings({ ...ONLY('filesystem'), security: { folderTrust: { enabled: false } }, hooksConfig: { enabled: true } });
  const record = `${[process.execPath, HOOK].map(q).join(' ')} $CLAUDE_PROJECT_DIR/hooks.log pass`;
  ws.file(
    '.claude/settings.json',
    `{
  // Claude Code's project settings, comments and all
  "permissions": { "allow": ["Bash(ls:*)"] },
  "hooks": {
    "PreToolUse": [{ "matcher": "Write|Edit", "hooks": [{ "type": "command", "command": ${JSON.stringify(record)}, "timeout": 30 }] }],
    "Stop": [{ "hooks": [{ "type": "command", "command": "echo stop" }] }],
    "SubagentStop": [{ "hooks": [{ "type": "command", "command": "echo sub" }] }],
    "Elsewhere": [{ "hooks": [{ "type": "command", "command": "echo no" }] }]
  }
}
`,
  );
  ws.file(
    '.gemini/settings.json',
    '{\n  // ours\n  "model": { "name": "gemini-2.5-flash" },\n  "hooks": { "AfterModel": [] }\n}\n',
  );
  return ws;
}

const recorded = (ws: Workspace) => {
  const file = join(ws.home, 'fake.jsonl');
  const turn = (parts: object[]) => ({
    method: 'generateContentStream',
    response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }],
  });
  const write = { functionCall: { id: 'c1', name: 'write_file', args: { file_path: 'out.txt', content: 'hi\n' } } };
  writeFileSync(file, `${[turn([write]), turn([{ text: 'Done.' }])].map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
};

const hookCalls = (ws: Workspace) => {
  const log = join(ws.cwd, 'hooks.log');
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).payload)
    .map((p) => `${p.hook_event_name} ${p.tool_name}`);
};

describe('gemini-mcp hooks migrate --from-claude', () => {
  const endpoint = scriptedEndpoints();

  it('writes Gemini CLI hooks into .gemini/settings.json and keeps the rest of the file', async () => {
    const ws = claudeProject();
    const ep = await endpoint();
    const r = await runHost(['hooks', 'migrate', '--from-claude'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `Found Claude Code settings in: ${join(ws.cwd, '.claude/settings.json')}\n` +
        'Skipped "Elsewhere": Gemini CLI has no such hook event.\n' +
        'Migrating 2 hook event(s)...\n✓ Hooks successfully migrated to .gemini/settings.json\n\n' +
        'Migration complete! Please review the migrated hooks in .gemini/settings.json\n',
    );
    const text = readFileSync(join(ws.cwd, '.gemini/settings.json'), 'utf8');
    expect(text).toContain('// ours');
    const settings = JSON.parse(text.replace('// ours', ''));
    expect(settings.model).toEqual({ name: 'gemini-2.5-flash' });
    expect(settings.hooks.AfterModel).toEqual([]);
    expect(settings.hooks.BeforeTool).toEqual([
      {
        matcher: 'write_file|replace',
        hooks: [
          {
            command: `${[process.execPath, HOOK].map(q).join(' ')} $GEMINI_PROJECT_DIR/hooks.log pass`,
            type: 'command',
            timeout: 30_000,
          },
        ],
      },
    ]);
    // Stop and SubagentStop both fire as AfterAgent: both hooks are kept.
    expect(settings.hooks.AfterAgent.map((d: { hooks: { command: string }[] }) => d.hooks[0]!.command)).toEqual([
      'echo stop',
      'echo sub',
    ]);
    // Run again: the same file (each event is replaced, never appended twice).
    expect((await runHost(['hooks', 'migrate', '--from-claude'], { ws, url: ep.url })).code).toBe(0);
    expect(readFileSync(join(ws.cwd, '.gemini/settings.json'), 'utf8')).toBe(text);
    expect(ep.requests).toHaveLength(0);
  });

  it('without Claude settings, or with a broken file, says so (exit 1, or 52 for a file that does not parse) and writes nothing', async () => {
    const ws = workspace();
    const ep = await endpoint();
    const none = await runHost(['hooks', 'migrate', '--from-claude'], { ws, url: ep.url });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No Claude Code settings found in .claude directory');
    ws.file('.claude/settings.local.json', '{ "hooks": ');
    const broken = await runHost(['hooks', 'migrate', '--from-claude'], { ws, url: ep.url });
    expect(broken.code).toBe(52);
    expect(broken.stderr).toContain(join(ws.cwd, '.claude/settings.local.json'));
    expect(existsSync(join(ws.cwd, '.gemini/settings.json'))).toBe(false);
    const usage = await runHost(['hooks', 'migrate'], { ws, url: ep.url });
    expect(usage.code).toBe(0);
    expect(usage.stdout).toContain('Usage: gemini-mcp hooks migrate --from-claude');
    const unknown = await runHost(['hooks', 'list'], { ws, url: ep.url });
    expect(unknown.code).toBe(42);
    expect(unknown.stderr).toContain('Unknown hooks command "list"');
    expect(ep.requests).toHaveLength(0);
  });

  it('our host and Gemini CLI 0.61 both run the migrated hook before write_file', { timeout: 180_000 }, async () => {
    const { entry: GEMINI, why } = geminiCli();
    // CI reaches the npm registry, so a missing Gemini CLI there is a failure, not a skip.
    if (!GEMINI && !process.env.CI) return console.warn(`hooks-command: Gemini CLI comparison skipped, ${why}`);
    expect(GEMINI, why).toBeDefined();
    const run = async (host: 'ours' | 'gemini') => {
      const ws = claudeProject();
      expect((await runHost(['hooks', 'migrate', '--from-claude'], { ws })).code).toBe(0);
      const fake = recorded(ws);
      const args = ['-p', 'write it', '-y', '--fake-responses', fake];
      const r =
        host === 'ours'
          ? await runHost(args, { ws })
          : spawnSync(process.execPath, [GEMINI!, '-m', 'gemini-2.5-flash', ...args], {
              cwd: ws.cwd,
              encoding: 'utf8',
              timeout: 90_000,
              env: {
                ...process.env,
                HOME: ws.home,
                GEMINI_CLI_HOME: ws.home,
                GEMINI_API_KEY: 'test-key',
                GEMINI_CLI_TRUST_WORKSPACE: 'true',
              },
            });
      const code = 'code' in r ? r.code : r.status;
      expect(code, `${host}: ${r.stderr}`).toBe(0);
      expect(readFileSync(join(ws.cwd, 'out.txt'), 'utf8')).toBe('hi\n');
      return hookCalls(ws);
    };
    const ours = await run('ours');
    expect(ours).toEqual(['BeforeTool write_file']);
    expect(await run('gemini')).toEqual(ours);
  });
});
