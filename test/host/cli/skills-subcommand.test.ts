import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../helpers/gemini-cli.js';
import { ONLY, runHost, scriptedEndpoints, workspace, type Workspace } from '../../helpers/run-host.js';

/**
 * `gemini-mcp skills list|enable|disable` run as Gemini CLI 0.61's `gemini skills …` (they were once sent
 * to the model as a prompt): same output, same `skills.disabled` lists in the same settings files, and
 * Gemini CLI reads what we wrote. A disabled skill is not offered to the model.
 */
function skill(dir: string, name: string, description: string): string {
  mkdirSync(join(dir, name), { recursive: true });
  const file = join(dir, name, 'SKILL.md');
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\nDo the thing.\n`);
  return file;
}

function project(): Workspace {
  const ws = workspace();
  ws.settings({ ...ONLY(), security: { folderTrust: { enabled: false } } });
  skill(join(ws.home, '.gemini', 'skills'), 'pdf', 'Reads PDF files');
  skill(join(ws.cwd, '.gemini', 'skills'), 'alpha', 'Alpha things');
  return ws;
}

const settingsOf = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('gemini-mcp skills', () => {
  const endpoint = scriptedEndpoints();

  it('list, disable (workspace, then user) and enable write the files and say what Gemini CLI says', async () => {
    const ws = project();
    const ep = await endpoint();
    const opts = { ws, url: ep.url };
    const userFile = join(ws.home, '.gemini', 'settings.json');
    const projectFile = join(ws.cwd, '.gemini', 'settings.json');

    const list = await runHost(['skills', 'list'], opts);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe(
      'Discovered Agent Skills:\n\n' +
        `alpha [Enabled]\n  Description: Alpha things\n  Location:    ${join(ws.cwd, '.gemini/skills/alpha/SKILL.md')}\n\n` +
        `pdf [Enabled]\n  Description: Reads PDF files\n  Location:    ${join(ws.home, '.gemini/skills/pdf/SKILL.md')}\n\n`,
    );

    const off = await runHost(['skills', 'disable', 'pdf'], opts);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toBe(
      `Skill "pdf" disabled by adding it to the disabled list in workspace (${projectFile}) settings.\n`,
    );
    expect(settingsOf(projectFile).skills.disabled).toEqual(['pdf']);
    const again = await runHost(['skills', 'disable', 'pdf'], opts);
    expect(again.stdout).toBe('Skill "pdf" is already disabled.\n');
    const user = await runHost(['skills', 'disable', 'pdf', '--scope', 'user'], opts);
    expect(user.stdout).toBe(
      `Skill "pdf" is now disabled in both user (${userFile}) and workspace (${projectFile}) settings.\n`,
    );
    expect(settingsOf(userFile).skills.disabled).toEqual(['pdf']);
    // The user file's other settings are kept.
    expect(settingsOf(userFile).mcp.excluded).toContain('shell');

    const disabled = await runHost(['skills', 'list'], opts);
    expect(disabled.stdout).toContain('pdf [Disabled]\n');
    expect(disabled.stdout).toContain('alpha [Enabled]\n');
    // Not offered to the model: /skills in a headless run lists only the enabled one.
    const offered = await runHost(['-p', '/skills'], opts);
    expect(offered.code, offered.stderr).toBe(0);
    expect(offered.stdout).toContain('alpha: Alpha things');
    expect(offered.stdout).not.toContain('pdf');

    const on = await runHost(['skills', 'enable', 'pdf'], opts);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toBe(
      `Skill "pdf" enabled by removing it from the disabled list in workspace (${projectFile}) and user (${userFile}) settings.\n`,
    );
    expect(settingsOf(projectFile).skills.disabled).toEqual([]);
    expect(settingsOf(userFile).skills.disabled).toEqual([]);
    expect(ep.requests).toHaveLength(0);
  });

  it('bad input is a usage error (exit 42) that writes nothing and reaches no model', async () => {
    const ws = project();
    const ep = await endpoint();
    for (const args of [
      ['skills'],
      ['skills', 'frobnicate'],
      ['skills', 'disable'],
      ['skills', 'disable', 'pdf', '--scope', 'system'],
      ['skills', 'install'],
      ['skills', 'uninstall', 'pdf', '--scope', 'system'],
    ]) {
      const r = await runHost(args, { ws, url: ep.url });
      expect(r.code, args.join(' ')).toBe(42);
      expect(r.stderr).toContain('Usage: gemini-mcp skills');
    }
    expect(ep.requests).toHaveLength(0);
  });

  it('Gemini CLI 0.61 reads the disabled list we wrote and lists the skills as we do', {
    timeout: 120_000,
  }, async () => {
    const { entry: GEMINI, why } = geminiCli();
    // CI reaches the npm registry, so a missing Gemini CLI there is a failure, not a skip.
    if (!GEMINI && !process.env.CI) return console.warn(`skills-command: Gemini CLI comparison skipped, ${why}`);
    expect(GEMINI, why).toBeDefined();
    const ws = project();
    const ep = await endpoint();
    expect((await runHost(['skills', 'disable', 'alpha', '--scope', 'user'], { ws, url: ep.url })).code).toBe(0);
    const ours = await runHost(['skills', 'list'], { ws, url: ep.url });
    const theirs = spawnSync(process.execPath, [GEMINI!, 'skills', 'list'], {
      cwd: ws.cwd,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, HOME: ws.home, GEMINI_CLI_HOME: ws.home, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    });
    expect(theirs.status, theirs.stderr).toBe(0);
    expect(theirs.stdout).toContain('alpha [Disabled]');
    expect(ours.stdout).toBe(theirs.stdout);
  });
});
