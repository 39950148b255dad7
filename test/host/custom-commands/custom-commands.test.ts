import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

/** The text of the last user message the model received. */
function sentText(body: { contents: { role: string; parts: { text?: string }[] }[] }): string {
  const user = body.contents.filter((c) => c.role === 'user').at(-1)!;
  return user.parts.map((p) => p.text ?? '').join('');
}

function put(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('custom .toml commands in headless -p "/cmd args"', () => {
  const endpoint = scriptedEndpoints();
  const ws = workspace();
  ws.settings({ ...ONLY('filesystem', 'shell') });
  const userCmds = join(ws.home, '.gemini', 'commands');
  // Namespaced (git/commit.toml → /git:commit), with every expansion.
  put(
    join(userCmds, 'git', 'commit.toml'),
    [
      'description = "Write a commit message"',
      'prompt = """',
      'Message for: {{args}}',
      'Notes: @{notes.txt}',
      'Echo: !{printf "%s" {{args}}}',
      '"""',
    ].join('\n'),
  );
  put(join(userCmds, 'plain.toml'), 'prompt = "Review the code."\n');
  // The author's own quotes around the placeholder.
  put(
    join(userCmds, 'quoted.toml'),
    ['prompt = """', "Single: !{printf '%s' '{{args}}'}", 'Double: !{printf \'%s\' "{{args}}"}', '"""'].join('\n'),
  );
  put(join(userCmds, 'ticks.toml'), ['prompt = """', 'Ticks: !{echo `printf %s {{args}}`}', '"""'].join('\n'));
  put(join(userCmds, 'broken.toml'), 'prompt = \n');
  put(join(userCmds, 'nodesc.toml'), 'description = "no prompt"\n');
  ws.file('notes.txt', 'remember the tests');

  it('expands @{file}, !{cmd} with {{args}} shell-quoted, and {{args}} raw elsewhere', async () => {
    const ep = await endpoint(reply.text('Done.'));
    const r = await runHost(['-p', '/git:commit fix typo', '--yolo'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const text = sentText(ep.requestsOf('streamGenerateContent')[0]!.body);
    expect(text).toBe('Message for: fix typo\nNotes: remember the tests\nEcho: fix typo\n');
  }, 60_000);

  it('a hostile argument inside !{} stays one word: nothing else runs', async () => {
    const marker = join(ws.cwd, 'pwned');
    const ep = await endpoint(reply.text('Done.'));
    const hostile = `"; touch ${marker}"`;
    const r = await runHost(['-p', `/git:commit ${hostile}`, '--yolo'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const text = sentText(ep.requestsOf('streamGenerateContent')[0]!.body);
    expect(text).toContain(`Echo: ${hostile}`);
    expect(text).toContain(`Message for: ${hostile}`);
  }, 60_000);

  it("{{args}} inside the author's quotes stays one literal word; backquotes are refused, saying how to write it", async () => {
    const marker = join(ws.cwd, 'pwned-quoted');
    const ep = await endpoint(reply.text('Done.'));
    const hostile = `'; touch ${marker}; echo "; touch ${marker}; "`;
    const r = await runHost(['-p', `/quoted ${hostile}`, '--yolo'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const text = sentText(ep.requestsOf('streamGenerateContent')[0]!.body);
    expect(text).toBe(`Single: ${hostile}\nDouble: ${hostile}\n`);

    const refused = await runHost(['-p', `/ticks ${hostile}`, '--yolo'], { ws, url: ep.url });
    expect(refused.code).toBe(42);
    expect(refused.stderr).toContain('{{args}} inside backquotes cannot be passed safely');
    expect(existsSync(marker)).toBe(false);
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(1);
  }, 60_000);

  it('a !{} the user does not approve (headless) stops the run: exit 42, nothing sent', async () => {
    const ep = await endpoint(reply.text('never'));
    const r = await runHost(['-p', '/git:commit x'], { ws, url: ep.url });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain('/git:commit cannot be run');
    // It says which flag would allow it, with one period before what follows.
    expect(r.stderr).toContain(
      'pass --allowed-tools "run_shell_command(printf)" or -y. Nothing was sent to the model.',
    );
    expect(r.stderr).not.toContain('..');
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(0);
  }, 60_000);

  it('without {{args}} the invocation is appended after a blank line; bad files are reported, others load', async () => {
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', '/plain src/a.ts'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(sentText(ep.requestsOf('streamGenerateContent')[0]!.body)).toBe('Review the code.\n\n/plain src/a.ts');
    expect(r.stderr).toContain(`${join(userCmds, 'broken.toml')}`);
    expect(r.stderr).toContain(`${join(userCmds, 'nodesc.toml')}: The 'prompt' field is required.`);
  }, 60_000);

  it('@{dir} reads the folder; a path outside the workspace is refused by the filesystem server', async () => {
    put(join(userCmds, 'tree.toml'), 'prompt = "Files: @{lib} Secret: @{/etc/hostname}"\n');
    ws.file('lib/a.txt', 'alpha');
    ws.file('lib/b.txt', 'beta');
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', '/tree'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const text = sentText(ep.requestsOf('streamGenerateContent')[0]!.body);
    expect(text).toMatch(
      /^Files: --- Start of content for directory: lib ---\n[\s\S]*alpha[\s\S]*beta[\s\S]*--- End of content for directory: lib ---/,
    );
    // The placeholder stays and the user is told why, as in Gemini CLI.
    expect(text).toContain('Secret: @{/etc/hostname}');
    expect(r.stderr).toContain("Failed to inject content for '@{/etc/hostname}'");
  }, 60_000);

  it('/help lists the custom commands with their descriptions, without calling the model', async () => {
    const ep = await endpoint();
    const r = await runHost(['-p', '/help'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('/git:commit — Write a commit message');
    expect(r.stdout).toContain('/plain — Custom command from plain.toml');
    expect(ep.requests).toHaveLength(0);
  }, 60_000);
});

describe('command sources and conflicts', () => {
  const endpoint = scriptedEndpoints();
  const ws = workspace();
  ws.settings({ ...ONLY(), security: { folderTrust: { enabled: true } } });
  put(join(ws.home, '.gemini', 'commands', 'x.toml'), 'prompt = "from user"\n');
  put(join(ws.cwd, '.gemini', 'commands', 'x.toml'), 'prompt = "from workspace"\n');
  put(
    join(ws.cwd, '.claude', 'commands', 'fix.md'),
    '---\ndescription: Fix an issue\n---\nFix issue $ARGUMENTS now.\n',
  );

  it('a name in both scopes keeps both: /user.x and /workspace.x (trusted folder)', async () => {
    const ep = await endpoint(reply.text('a'), reply.text('b'));
    const a = await runHost(['-p', '/user.x', '--skip-trust'], { ws, url: ep.url });
    const b = await runHost(['-p', '/workspace.x', '--skip-trust'], { ws, url: ep.url });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const sent = ep.requestsOf('streamGenerateContent').map((q) => sentText(q.body));
    expect(sent).toEqual(['from user', 'from workspace']);
  }, 60_000);

  it('Claude Code Markdown commands substitute $ARGUMENTS', async () => {
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', '/fix 123', '--skip-trust'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(sentText(ep.requestsOf('streamGenerateContent')[0]!.body)).toBe('Fix issue 123 now.');
  }, 60_000);

  it('an untrusted folder loads no project commands: the user one keeps its name', async () => {
    const ep = await endpoint(reply.text('u'));
    const r = await runHost(['-p', '/x'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(sentText(ep.requestsOf('streamGenerateContent')[0]!.body)).toBe('from user');
    expect(r.stderr).toContain('project custom commands and skills');
  }, 60_000);
});

describe('built-in slash commands in headless -p', () => {
  const endpoint = scriptedEndpoints();
  const ws = workspace();
  ws.settings({ ...ONLY('filesystem') });
  put(
    join(ws.home, '.gemini', 'skills', 'tidy', 'SKILL.md'),
    '---\nname: tidy\ndescription: Tidies code\n---\nBody.\n',
  );

  it('/tools, /skills and /extensions print without calling the model; /clear is an input error', async () => {
    const ep = await endpoint();
    const tools = await runHost(['-p', '/tools'], { ws, url: ep.url });
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stdout).toContain('filesystem__read_file');
    expect(tools.stdout).toContain('activate_skill');
    const skills = await runHost(['-p', '/skills'], { ws, url: ep.url });
    expect(skills.stdout).toBe(`tidy: Tidies code\n  ${join(ws.home, '.gemini', 'skills', 'tidy', 'SKILL.md')}\n`);
    const exts = await runHost(['-p', '/extensions'], { ws, url: ep.url });
    expect(exts.stdout).toBe('No extensions installed.\n');
    const clear = await runHost(['-p', '/clear'], { ws, url: ep.url });
    expect(clear.code).toBe(42);
    expect(clear.stderr).toContain('/clear is only available in the interactive chat');
    // Every chat built-in is refused the same way, newer ones included: none reaches the model as a prompt.
    const theme = await runHost(['-p', '/theme light'], { ws, url: ep.url });
    expect(theme.code).toBe(42);
    expect(theme.stderr).toContain('/theme light is only available in the interactive chat');
    expect(ep.requests).toHaveLength(0);
  }, 60_000);
});
