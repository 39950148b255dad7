import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { tempDir } from '../../helpers/tmp.js';
import { autoUpdateExtensions } from '../../../host/extensions/auto-update.js';
import { commitAll, gitInit, writeDemoExtension } from './extension-fixture.js';

const json = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

describe('extensions: install from a local path, then use', () => {
  const endpoint = scriptedEndpoints();
  const ws = workspace();
  ws.settings({ ...ONLY('filesystem') });
  const src = writeDemoExtension(join(tempDir('gmc-ext-src-'), 'demo-ext'));
  const installed = join(ws.home, '.gemini', 'extensions', 'demo-ext');

  it('install asks for the setting (not echoed), writes Gemini CLI files and enables it for the user', async () => {
    const r = await runHost(['extensions', 'install', src, '--consent'], { ws, stdin: 'tok-123\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Extension "demo-ext" installed successfully');
    expect(r.stdout).not.toContain('tok-123');
    expect(json(join(installed, '.gemini-extension-install.json'))).toEqual({ source: src, type: 'local' });
    expect(json(join(ws.home, '.gemini', 'extensions', 'extension-enablement.json'))).toEqual({
      'demo-ext': { overrides: [`${ws.home}/*`] },
    });
    expect(readFileSync(join(installed, '.env'), 'utf8')).toBe('DEMO_TOKEN=tok-123\n');
  }, 60_000);

  it('its command, context, skills, excluded tool and server reach the model; the server gets its settings', async () => {
    const ep = await endpoint(reply.calls({ name: 'demo__whoami', args: {} }), reply.text('Arr.'));
    const r = await runHost(['-p', '/demo:hello Ann', '--yolo'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = ep.requestsOf('streamGenerateContent');
    const body = first!.body;
    expect(body.contents.at(-1).parts[0].text).toBe('Say hello to Ann.');
    const system = body.systemInstruction.parts.map((p: { text: string }) => p.text).join('');
    expect(system).toContain(`--- Context from: ${join(installed, 'DEMO.md')} ---\nAlways answer like a pirate.`);
    expect(system).toContain(`<name>greeter</name>\n    <description>Greets people warmly</description>`);
    const names = body.tools
      .flatMap((t: { functionDeclarations: { name: string }[] }) => t.functionDeclarations)
      .map((d: { name: string }) => d.name);
    expect(names).toContain('demo__whoami');
    expect(names).toContain('activate_skill');
    expect(names).toContain('filesystem__read_file');
    expect(names).not.toContain('filesystem__read_many_files');
    const answer = JSON.stringify(second!.body.contents.at(-1));
    expect(answer).toContain(`\\"dir\\":\\"${installed}\\"`);
    expect(answer).toContain('tok-123');
    expect(answer).toContain(ws.cwd);
  }, 60_000);

  it('mcp list names the extension a server comes from', async () => {
    const r = await runHost(['mcp', 'list'], { ws });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('demo (from extension demo-ext)');
  }, 60_000);

  it('activate_skill returns the body in <activated_skill>', async () => {
    const ep = await endpoint(reply.calls({ name: 'activate_skill', args: { name: 'greeter' } }), reply.text('Hi!!!'));
    const r = await runHost(['-p', 'greet me'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const back = JSON.stringify(ep.requestsOf('streamGenerateContent')[1]!.body.contents.at(-1));
    expect(back).toContain('<activated_skill name=\\"greeter\\">');
    expect(back).toContain('Use three exclamation marks.');
  }, 60_000);

  it('disable for the workspace, -e none and -l', async () => {
    let r = await runHost(['extensions', 'disable', 'demo-ext', '--scope', 'workspace'], { ws });
    expect(r.code, r.stderr).toBe(0);
    expect(json(join(ws.home, '.gemini', 'extensions', 'extension-enablement.json'))['demo-ext'].overrides).toEqual([
      `${ws.home}/*`,
      `!${ws.cwd}/*`,
    ]);
    r = await runHost(['-l'], { ws });
    expect(r.stdout).toContain('✗ demo-ext (1.0.0)');
    r = await runHost(['extensions', 'enable', 'demo-ext', '--scope', 'workspace'], { ws });
    expect(r.code).toBe(0);
    r = await runHost(['-l', '-e', 'none'], { ws });
    expect(r.stdout).toContain('✗ demo-ext (1.0.0)');
    r = await runHost(['extensions', 'list'], { ws });
    expect(r.stdout).toContain('✓ demo-ext (1.0.0)');
    expect(r.stdout).toContain('API token (DEMO_TOKEN): [set]');
  }, 60_000);

  it('uninstall removes the folder and its enablement entry', async () => {
    const r = await runHost(['extensions', 'uninstall', 'demo-ext'], { ws });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(installed)).toBe(false);
    expect(json(join(ws.home, '.gemini', 'extensions', 'extension-enablement.json'))).toEqual({});
  }, 60_000);
});

describe('extensions: git installs and failures leave nothing half-installed', () => {
  const ws = workspace();
  const root = tempDir('gmc-ext-git-');
  const repo = writeDemoExtension(join(root, 'repo'));
  gitInit(repo);
  const extDir = join(ws.home, '.gemini', 'extensions');
  const left = () => (existsSync(extDir) ? readdirSync(extDir).filter((f) => f !== 'extension-enablement.json') : []);

  it('installs from a git URL with its metadata, and updates from it', async () => {
    const url = `file://${repo}`;
    let r = await runHost(['extensions', 'install', url, '--consent'], { ws, stdin: '\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(json(join(extDir, 'demo-ext', '.gemini-extension-install.json'))).toEqual({ source: url, type: 'git' });
    r = await runHost(['extensions', 'update', 'demo-ext'], { ws });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('refreshed from its source (version 1.0.0)');
    r = await runHost(['extensions', 'uninstall', 'demo-ext'], { ws });
    expect(r.code).toBe(0);
  }, 60_000);

  it('a failed clone, a bad name, an invalid manifest or a refusal leave nothing', async () => {
    const before = left();
    let r = await runHost(['extensions', 'install', `file://${root}/missing`, '--consent'], { ws });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('git clone failed');
    const bad = writeDemoExtension(join(root, 'bad'), { name: 'bad name!' });
    r = await runHost(['extensions', 'install', bad, '--consent'], { ws });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Invalid extension name: "bad name!"');
    const noVersion = writeDemoExtension(join(root, 'nover'), { version: '' });
    r = await runHost(['extensions', 'install', noVersion, '--consent'], { ws });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"version"');
    r = await runHost(['extensions', 'install', repo], { ws, stdin: 'n\n' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('This extension will run the following MCP servers:');
    expect(r.stdout).toContain('server.mjs');
    expect(left()).toEqual(before);
  }, 60_000);

  it('link uses the folder in place; consent and the setting answered on one pipe', async () => {
    const linked = writeDemoExtension(join(root, 'linked'), { name: 'linked-ext' });
    let r = await runHost(['extensions', 'link', linked], { ws, stdin: 'y\nsecret value\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Do you want to continue? [Y/n]');
    expect(json(join(extDir, 'linked-ext', '.gemini-extension-install.json'))).toEqual({
      source: linked,
      type: 'link',
    });
    expect(readFileSync(join(extDir, 'linked-ext', '.env'), 'utf8')).toBe('DEMO_TOKEN="secret value"\n');
    writeFileSync(join(linked, 'DEMO.md'), 'Changed in place.\n');
    r = await runHost(['extensions', 'list'], { ws });
    expect(r.stdout).toContain(`Path: ${linked}`);
    expect(r.stdout).toContain(join(linked, 'DEMO.md'));
    r = await runHost(['extensions', 'uninstall', 'linked-ext'], { ws });
    expect(r.code).toBe(0);
    expect(existsSync(linked)).toBe(true);
  }, 60_000);

  it('new and validate', async () => {
    const r1 = await runHost(['extensions', 'new', join(root, 'made'), 'custom-commands'], { ws });
    expect(r1.code, r1.stderr).toBe(0);
    expect(json(join(root, 'made', 'gemini-extension.json'))).toEqual({ name: 'made', version: '1.0.0' });
    const r2 = await runHost(['extensions', 'validate', join(root, 'made')], { ws });
    expect(r2.code, r2.stderr).toBe(0);
    const r3 = await runHost(['extensions', 'validate', join(root, 'nover')], { ws });
    expect(r3.code).toBe(1);
  }, 60_000);
});

describe('extensions: --auto-update', () => {
  const ws = workspace();
  const root = tempDir('gmc-ext-auto-');
  const repo = writeDemoExtension(join(root, 'repo'));
  gitInit(repo);

  it('an extension behind its source is re-installed from it, settings kept; one that is current is left alone', async () => {
    const url = `file://${repo}`;
    const r = await runHost(['extensions', 'install', url, '--auto-update', '--consent'], { ws, stdin: 'tok\n' });
    expect(r.code, r.stderr).toBe(0);
    const io = {
      cwd: ws.cwd,
      env: { ...process.env, GEMINI_CLI_HOME: ws.home },
      log: () => {},
      confirm: async () => true,
      askSetting: async () => undefined,
    };
    expect(await autoUpdateExtensions(io)).toEqual([]);
    const manifest = join(repo, 'gemini-extension.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"1.0.0"', '"1.1.0"'));
    commitAll(repo, 'v2');
    expect(await autoUpdateExtensions(io)).toEqual([
      'Extension "demo-ext" was updated: 1.0.0 → 1.1.0. Restart to use it.',
    ]);
    const dir = join(ws.home, '.gemini', 'extensions', 'demo-ext');
    expect(json(join(dir, 'gemini-extension.json')).version).toBe('1.1.0');
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('DEMO_TOKEN=tok\n');
    expect(json(join(dir, '.gemini-extension-install.json'))).toEqual({ source: url, type: 'git', autoUpdate: true });
  }, 60_000);
});
