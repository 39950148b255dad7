import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiCliEntry, GEMINI_CLI_VERSION } from '../../helpers/gemini-cli.js';
import { collect, runHost, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { writeDemoExtension } from '../extensions/extension-fixture.js';

/**
 * The same home folder (settings and ~/.gemini/commands) driven through Gemini CLI 0.61 and through
 * gemini-mcp against the scripted endpoint: the user message of the first model request for a custom
 * command must carry the same parts. Gemini CLI adds its `<session_context>` part first (not part of the
 * command) and reports a command that exited normally as "terminated by signal 0" (a bug we do not copy).
 */
const upstream = geminiCliEntry();
// CI reaches the npm registry: there a missing Gemini CLI fails the comparison instead of skipping it.
const skip = 'error' in upstream && !process.env.CI;
if (skip) console.warn(`Gemini CLI ${GEMINI_CLI_VERSION} comparison skipped: ${upstream.error}`);

type Part = { text?: string };

function commandParts(ep: ScriptedGemini, from: number): Part[] {
  const req = ep.requestsOf('streamGenerateContent').slice(from)[0]!;
  const user = req.body.contents.filter((c: { role: string }) => c.role === 'user').at(-1) as { parts: Part[] };
  return user.parts
    .filter((p) => !p.text?.startsWith('<session_context>'))
    .map((p) => ({ text: p.text?.replace(/\n\[Shell command '.*' terminated by signal 0\]/g, '') }));
}

describe.skipIf(skip)(`custom commands: the first request matches Gemini CLI ${GEMINI_CLI_VERSION}`, () => {
  it('has Gemini CLI to compare with', () => {
    expect('error' in upstream ? upstream.error : '').toBe('');
  });
  const ws = workspace();
  let ep: ScriptedGemini;
  beforeAll(async () => {
    ep = await startScriptedGemini([], { responder: () => reply.text('ok') });
  });
  afterAll(() => ep?.close());
  ws.settings({
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    model: { skipNextSpeakerCheck: true },
    tools: { allowed: ['run_shell_command'] },
    mcp: { excluded: ['web', 'memory'] },
  });
  const cmds = join(ws.home, '.gemini', 'commands');
  mkdirSync(join(cmds, 'git'), { recursive: true });
  writeFileSync(
    join(cmds, 'git', 'commit.toml'),
    'description = "Commit"\nprompt = """\nMessage for: {{args}}\nNotes: @{notes.txt}\nEcho: !{printf "%s" {{args}}}\n"""\n',
  );
  writeFileSync(join(cmds, 'plain.toml'), 'prompt = "Review the code."\n');
  ws.file('notes.txt', 'remember the tests\n');

  function upstreamEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: ws.home,
      GEMINI_CLI_HOME: ws.home,
      GEMINI_API_KEY: 'k',
      GOOGLE_GEMINI_BASE_URL: ep.url,
      NO_COLOR: '1',
    };
    delete env.CI;
    return env;
  }

  function upstreamCli(args: string[]) {
    const child = spawn(process.execPath, [(upstream as { entry: string }).entry, ...args], {
      cwd: ws.cwd,
      env: upstreamEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A prompt Gemini CLI could not answer without a terminal would hang the test: bounded.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    return collect(child).done.finally(() => clearTimeout(timer));
  }

  async function upstreamRun(prompt: string): Promise<Part[]> {
    const from = ep.requestsOf('streamGenerateContent').length;
    const r = await upstreamCli(['-p', prompt, '-m', 'gemini-2.5-flash']);
    expect(r.code, r.stderr).toBe(0);
    return commandParts(ep, from);
  }

  async function ourRun(prompt: string): Promise<Part[]> {
    const from = ep.requestsOf('streamGenerateContent').length;
    const r = await runHost(['-p', prompt, '-m', 'gemini-2.5-flash'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    return commandParts(ep, from);
  }

  it('@{file}, !{cmd} with {{args}} and {{args}}: the same parts', async () => {
    const theirs = await upstreamRun('/git:commit fix "the" typo');
    const ours = await ourRun('/git:commit fix "the" typo');
    expect(ours).toEqual(theirs);
    expect(ours.map((p) => p.text).join('')).toBe(
      'Message for: fix "the" typo\nNotes: remember the tests\n\nEcho: fix "the" typo\n',
    );
  }, 180_000);

  it('an extension installed by gemini-mcp: Gemini CLI loads it; skills and its context read the same', async () => {
    const src = writeDemoExtension(join(tempDir('gmc-parity-ext-'), 'demo-ext'));
    const inst = await runHost(['extensions', 'install', src, '--consent'], { ws, stdin: 'tok\n' });
    expect(inst.code, inst.stderr).toBe(0);
    const from = ep.requestsOf('streamGenerateContent').length;
    const theirs = await upstreamRun('/demo:hello Ann');
    const ours = await ourRun('/demo:hello Ann');
    expect(ours).toEqual(theirs);
    const [up, me] = ep.requestsOf('streamGenerateContent').slice(from);
    const everything = (r: typeof up) => JSON.stringify([r!.body.systemInstruction, r!.body.contents]);
    // Gemini CLI lists two built-in skills of its own too: the extension's entry is compared.
    const skills = (r: typeof up) =>
      / {2}<skill>\\n {4}<name>greeter<\/name>[\s\S]*?<\/skill>/.exec(everything(r))?.[0];
    expect(skills(me)).toBeDefined();
    expect(skills(me)).toBe(skills(up));
    const context = `--- Context from: ${join(ws.home, '.gemini', 'extensions', 'demo-ext', 'DEMO.md')} ---\\nAlways answer like a pirate.\\n--- End of Context from:`;
    expect(everything(up)).toContain(context);
    expect(everything(me)).toContain(context);
  }, 180_000);

  it('Gemini CLI disables what we installed, we see it; we enable it again, Gemini CLI sees it', async () => {
    let r = await upstreamCli(['extensions', 'disable', 'demo-ext', '--scope', 'workspace']);
    expect(r.code, r.stderr).toBe(0);
    let ours = await runHost(['extensions', 'list'], { ws });
    expect(ours.stdout).toContain('✗ demo-ext (1.0.0)');
    ours = await runHost(['extensions', 'enable', 'demo-ext', '--scope', 'workspace'], { ws });
    expect(ours.code).toBe(0);
    r = await upstreamCli(['extensions', 'list']);
    expect(r.stdout + r.stderr).toMatch(/demo-ext \(1\.0\.0\)[\s\S]*Enabled \(Workspace\): true/);
  }, 180_000);

  it('no {{args}}: the invocation after a blank line, the same text', async () => {
    const theirs = await upstreamRun('/plain src/a.ts');
    const ours = await ourRun('/plain src/a.ts');
    expect(ours).toEqual(theirs);
    expect(ours).toEqual([{ text: 'Review the code.\n\n/plain src/a.ts' }]);
  }, 180_000);
});
