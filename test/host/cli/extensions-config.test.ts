import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../helpers/gemini-cli.js';
import { runHost, scriptedEndpoints, workspace, type Workspace } from '../../helpers/run-host.js';

/**
 * `gemini-mcp extensions config [name] [setting]` as Gemini CLI 0.61's (before, "Unknown extensions
 * command"): it asks an installed extension's settings again and keeps them in the extension's .env, which
 * Gemini CLI reads too.
 */
const MANIFEST = {
  name: 'demo',
  version: '1.0.0',
  settings: [
    { name: 'Api key', description: 'The key', envVar: 'API_KEY', sensitive: true },
    { name: 'Region', description: 'Where', envVar: 'REGION' },
  ],
};

async function installed(ws: Workspace, url: string): Promise<string> {
  const src = join(ws.home, 'src', 'demo');
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'gemini-extension.json'), JSON.stringify(MANIFEST));
  const r = await runHost(['extensions', 'install', src, '--consent'], { ws, url, stdin: 'k1\neu\n' });
  expect(r.code, r.stderr).toBe(0);
  return join(ws.home, '.gemini', 'extensions', 'demo', '.env');
}

describe('gemini-mcp extensions config', () => {
  const endpoint = scriptedEndpoints();

  it('one setting by name or variable; all of an extension, replacing a set value only after a yes', async () => {
    const ws = workspace();
    const ep = await endpoint();
    const env = await installed(ws, ep.url);
    expect(readFileSync(env, 'utf8')).toBe('API_KEY=k1\nREGION=eu\n');
    const one = await runHost(['extensions', 'config', 'demo', 'REGION'], { ws, url: ep.url, stdin: 'us\n' });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain('Setting "REGION" updated.');
    expect(readFileSync(env, 'utf8')).toBe('API_KEY=k1\nREGION=us\n');
    // Both are set: no to the key, yes to the region.
    const all = await runHost(['extensions', 'config', 'demo'], { ws, url: ep.url, stdin: 'n\ny\nasia pacific\n' });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('Configuring settings for "demo"...');
    expect(all.stdout).toContain('Setting "Api key" (API_KEY) is already set. Overwrite? [y/N]');
    expect(readFileSync(env, 'utf8')).toBe('API_KEY=k1\nREGION="asia pacific"\n');
    expect(statSync(env).mode & 0o777).toBe(0o600);
    const list = await runHost(['extensions', 'list'], { ws, url: ep.url });
    expect(list.stdout).toContain('Region (REGION): asia pacific');
    expect(ep.requests).toHaveLength(0);
  });

  it('a value with quotes or backslashes is kept exactly (a Windows path, a password)', async () => {
    const ws = workspace();
    const ep = await endpoint();
    await installed(ws, ep.url);
    const value = 'C:\\Users\\me "quoted" it\'s';
    const r = await runHost(['extensions', 'config', 'demo', 'REGION'], { ws, url: ep.url, stdin: `${value}\n` });
    expect(r.code, r.stderr).toBe(0);
    // Before, the value was escaped for a reader that does not unescape: it came back as `C:\\Users\\me \`.
    const list = await runHost(['extensions', 'list'], { ws, url: ep.url });
    expect(list.stdout).toContain(`Region (REGION): ${value}\n`);
    expect(ep.requests).toHaveLength(0);
  });

  it('an unknown extension or setting, a bad name or the workspace scope is an error that writes nothing', async () => {
    const ws = workspace();
    const ep = await endpoint();
    const env = await installed(ws, ep.url);
    const before = readFileSync(env, 'utf8');
    const cases: [string[], number, string][] = [
      [['extensions', 'config', 'nope'], 1, 'Extension "nope" not found.'],
      [['extensions', 'config', 'demo', 'NOPE'], 1, 'Setting NOPE not found.'],
      [['extensions', 'config', '../demo'], 42, 'Names cannot contain path separators'],
      [['extensions', 'config', 'demo', '--scope', 'workspace'], 42, '--scope workspace is not supported'],
    ];
    for (const [args, code, message] of cases) {
      const r = await runHost(args, { ws, url: ep.url, stdin: 'x\n' });
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stderr).toContain(message);
    }
    expect(readFileSync(env, 'utf8')).toBe(before);
    expect(ep.requests).toHaveLength(0);
  });

  it('Gemini CLI 0.61 reads the value we wrote', { timeout: 120_000 }, async () => {
    const { entry: GEMINI, why } = geminiCli();
    // CI reaches the npm registry, so a missing Gemini CLI there is a failure, not a skip.
    if (!GEMINI && !process.env.CI) return console.warn(`extensions-config: Gemini CLI comparison skipped, ${why}`);
    expect(GEMINI, why).toBeDefined();
    const ws = workspace();
    const ep = await endpoint();
    await installed(ws, ep.url);
    // Quotes and a backslash: the file must read back the same in both programs.
    const value = 'sa-east "2" C:\\x';
    const r = await runHost(['extensions', 'config', 'demo', 'Region'], { ws, url: ep.url, stdin: `${value}\n` });
    expect(r.code, r.stderr).toBe(0);
    const theirs = spawnSync(process.execPath, [GEMINI!, 'extensions', 'list'], {
      cwd: ws.cwd,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, HOME: ws.home, GEMINI_CLI_HOME: ws.home, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    });
    expect(theirs.status, theirs.stderr).toBe(0);
    expect(theirs.stdout + theirs.stderr).toContain(`Region: ${value} (User`);
  });
});
