import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, type ScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

/**
 * `git diff` as a user meets it through the real host, headless, on the system's git: asked for by
 * the model (run_shell_command) and by a custom command's `!{git diff}`, in a repository whose own
 * configuration names a diff program that must not run. What reaches the model is the real diff.
 */
describe('git diff through the host (headless)', () => {
  const endpoint = scriptedEndpoints();
  const ws = workspace();
  ws.settings({ ...ONLY('shell'), security: { folderTrust: { enabled: false } } });
  const marker = join(ws.home, 'external-ran');
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: ws.cwd, env: { ...process.env, HOME: ws.home }, stdio: 'pipe' }).toString();
  git('init', '-q');
  git('config', 'user.name', 'T');
  git('config', 'user.email', 't@example.invalid');
  ws.file('notes.txt', 'alpha\n');
  git('add', 'notes.txt');
  git('commit', '-qm', 'first');
  ws.file('notes.txt', 'alpha\nbeta\n');
  git('config', 'diff.external', `touch ${marker}; echo HOSTILE`);
  const native = git('diff', '--no-ext-diff').trim();
  const commands = join(ws.cwd, '.gemini', 'commands');
  mkdirSync(commands, { recursive: true });
  writeFileSync(join(commands, 'review.toml'), 'prompt = """\nReview this:\n!{git diff}\n"""\n');
  const env = { HOME: ws.home };

  /** The text of every part the host sent in the last request. */
  const lastSent = (ep: ScriptedGemini) => JSON.stringify(ep.requests.at(-1)?.body?.contents?.at(-1)?.parts);

  it("the model's git diff gets the diff, and the repository's diff.external does not run", async () => {
    expect(native).toContain('+beta');
    const ep = await endpoint(
      reply.calls({ id: 'd1', name: 'shell__run_shell_command', args: { command: 'git diff' } }),
      reply.text('Reviewed.'),
    );
    const r = await runHost(['-p', 'review my change', '--yolo'], { ws, url: ep.url, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Reviewed.');
    const sent = lastSent(ep);
    expect(sent).toContain(JSON.stringify(native).slice(1, -1));
    expect(sent).not.toMatch(/external diff died|HOSTILE/);
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it("a custom command's !{git diff} puts the diff in the prompt", async () => {
    const ep = await endpoint(reply.text('Looks fine.'));
    const r = await runHost(['-p', '/review', '--yolo'], { ws, url: ep.url, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Looks fine.');
    const sent = lastSent(ep);
    expect(sent).toContain(JSON.stringify(`Review this:\n${native}`).slice(1, -1));
    expect(existsSync(marker)).toBe(false);
  }, 60_000);
});
