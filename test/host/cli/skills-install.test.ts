import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../helpers/gemini-cli.js';
import { ONLY, runHost, scriptedEndpoints, workspace, type Workspace } from '../../helpers/run-host.js';

/**
 * `gemini-mcp skills install|link|uninstall` as Gemini CLI 0.61's (they were once a "not supported" or a
 * prompt): skill folders copied or linked into ~/.gemini/skills or .gemini/skills after a yes, removed by
 * name, and Gemini CLI 0.61 lists what we installed as we do.
 */
function skill(dir: string, name: string, description: string, extra: Record<string, string> = {}): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`);
  for (const [f, text] of Object.entries(extra)) writeFileSync(join(dir, f), text);
}

function setUp(): { ws: Workspace; pack: string; userSkills: string; projectSkills: string } {
  const ws = workspace();
  ws.settings({ ...ONLY(), security: { folderTrust: { enabled: false } } });
  const pack = join(ws.home, 'src', 'pack');
  skill(join(pack, 'one'), 'one', 'First skill', { 'helper.sh': 'echo hi\n' });
  skill(join(pack, 'two'), 'two', 'Second skill');
  return {
    ws,
    pack,
    userSkills: join(ws.home, '.gemini', 'skills'),
    projectSkills: join(ws.cwd, '.gemini', 'skills'),
  };
}

describe('gemini-mcp skills install|link|uninstall', () => {
  const endpoint = scriptedEndpoints();

  it('install copies each skill after a yes; uninstall removes it; a no installs nothing', async () => {
    const { ws, pack, userSkills } = setUp();
    const ep = await endpoint();
    const no = await runHost(['skills', 'install', pack], { ws, url: ep.url, stdin: 'n\n' });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('Skill installation cancelled by user.');
    expect(existsSync(join(userSkills, 'one'))).toBe(false);

    const r = await runHost(['skills', 'install', pack], { ws, url: ep.url, stdin: 'y\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Installing agent skill(s) from "${pack}".`);
    expect(r.stdout).toContain('  * one: First skill');
    expect(r.stdout).toContain(`Install Destination: ${userSkills}`);
    expect(r.stdout).toContain(
      `Successfully installed skill: one (scope: user, location: ${join(userSkills, 'one')})\n`,
    );
    expect(r.stdout).toContain(
      `Successfully installed skill: two (scope: user, location: ${join(userSkills, 'two')})\n`,
    );
    expect(readFileSync(join(userSkills, 'one', 'helper.sh'), 'utf8')).toBe('echo hi\n');
    expect(statSync(join(userSkills, 'one')).mode & 0o777).toBe(statSync(join(pack, 'one')).mode & 0o777);
    const offered = await runHost(['-p', '/skills'], { ws, url: ep.url });
    expect(offered.stdout).toContain('one: First skill');

    const gone = await runHost(['skills', 'uninstall', 'one'], { ws, url: ep.url });
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toBe(
      `Successfully uninstalled skill: one (scope: user, location: ${join(userSkills, 'one')})\n`,
    );
    expect(existsSync(join(userSkills, 'one'))).toBe(false);
    expect(existsSync(join(userSkills, 'two', 'SKILL.md'))).toBe(true);
    expect(ep.requests).toHaveLength(0);
  });

  it('install from a git repository (--path, workspace scope) leaves .git behind', async () => {
    const { ws, projectSkills } = setUp();
    const ep = await endpoint();
    const repo = join(ws.home, 'repo');
    skill(join(repo, 'skills', 'lint'), 'lint', 'Lints things');
    const git = (...a: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { cwd: repo, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'skills');
    const r = await runHost(
      ['skills', 'install', `file://${repo}`, '--path', 'skills', '--scope', 'workspace', '--consent'],
      { ws, url: ep.url },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Cloning skill from file://${repo}...`);
    expect(r.stdout).toContain('You have consented to the following:');
    expect(readFileSync(join(projectSkills, 'lint', 'SKILL.md'), 'utf8')).toContain('Lints things');
    expect(existsSync(join(projectSkills, '.git'))).toBe(false);
    const outside = await runHost(['skills', 'install', `file://${repo}`, '--path', '../..', '--consent'], {
      ws,
      url: ep.url,
    });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('Directory traversal not allowed');
  });

  it('link points at the source (edits show at once); uninstall removes the link, not the source', async () => {
    const { ws, pack, userSkills } = setUp();
    const ep = await endpoint();
    const r = await runHost(['skills', 'link', join(pack, 'two'), '--consent'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\nSuccessfully linked skills.\n');
    expect(lstatSync(join(userSkills, 'two')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(userSkills, 'two'))).toBe(join(pack, 'two'));
    skill(join(pack, 'two'), 'two', 'Edited in place');
    expect((await runHost(['skills', 'list'], { ws, url: ep.url })).stdout).toContain('Description: Edited in place');
    expect((await runHost(['skills', 'uninstall', 'two'], { ws, url: ep.url })).code).toBe(0);
    expect(existsSync(join(userSkills, 'two'))).toBe(false);
    expect(existsSync(join(pack, 'two', 'SKILL.md'))).toBe(true);
  });

  it('a name that leaves the skills folder, or an unknown one, is refused and removes nothing', async () => {
    const { ws, userSkills } = setUp();
    const ep = await endpoint();
    const evil = join(ws.home, 'evil');
    skill(evil, '..', 'Climbs out');
    const r = await runHost(['skills', 'install', evil, '--consent'], { ws, url: ep.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Invalid skill name: Path traversal detected.');
    skill(join(userSkills, 'keep'), 'keep', 'Stays');
    for (const name of ['..', 'nope', '.']) {
      const u = await runHost(['skills', 'uninstall', name], { ws, url: ep.url });
      expect(u.code, name).toBe(1);
      expect(u.stderr).toContain(`Skill "${name}" is not installed in the user scope.`);
    }
    expect(existsSync(join(userSkills, 'keep', 'SKILL.md'))).toBe(true);
    expect(existsSync(join(ws.home, '.gemini', 'settings.json'))).toBe(true);
  });

  it('Gemini CLI 0.61 lists the skills we installed and linked as we do', { timeout: 120_000 }, async () => {
    const { entry: GEMINI, why } = geminiCli();
    // CI reaches the npm registry, so a missing Gemini CLI there is a failure, not a skip.
    if (!GEMINI && !process.env.CI) return console.warn(`skills-install: Gemini CLI comparison skipped, ${why}`);
    expect(GEMINI, why).toBeDefined();
    const { ws, pack } = setUp();
    const ep = await endpoint();
    expect((await runHost(['skills', 'install', join(pack, 'one'), '--consent'], { ws, url: ep.url })).code).toBe(0);
    const link = ['skills', 'link', join(pack, 'two'), '--scope', 'workspace', '--consent'];
    expect((await runHost(link, { ws, url: ep.url })).code).toBe(0);
    const ours = await runHost(['skills', 'list'], { ws, url: ep.url });
    const theirs = spawnSync(process.execPath, [GEMINI!, 'skills', 'list'], {
      cwd: ws.cwd,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, HOME: ws.home, GEMINI_CLI_HOME: ws.home, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    });
    expect(theirs.status, theirs.stderr).toBe(0);
    expect(theirs.stdout).toContain('one [Enabled]');
    expect(theirs.stdout).toContain('two [Enabled]');
    expect(ours.stdout).toBe(theirs.stdout);
  });
});
