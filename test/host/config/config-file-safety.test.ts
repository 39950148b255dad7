import { execFileSync } from 'node:child_process';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleFor } from '../../../host/config/trust.js';
import { runTrustCommand } from '../../../host/cli/trust-subcommand.js';
import { readConfigFile, readConfigFileHead } from '../../../host/config/config-file.js';
import { loadSettings } from '../../../host/load-settings.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { tempDir } from '../../helpers/tmp.js';
import { startMemory } from '../../servers/memory/harness.js';

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

class Sink {
  text = '';
  write(s: string) {
    this.text += s;
    return true;
  }
}

describe('folder trust precedence: the deepest folder decides, distrust wins at equal depth', () => {
  it('a --never on the folder beats a --parent saved from a longer-named sibling', async () => {
    const root = tempDir('gmc-trustdepth-');
    const env = { GEMINI_CLI_TRUSTED_FOLDERS_PATH: join(root, 'trusted.json') };
    const project = join(root, 'repos', 'p');
    const sibling = join(root, 'repos', 'a-sibling-with-a-much-longer-name');
    mkdirSync(project, { recursive: true });
    mkdirSync(sibling, { recursive: true });
    const out = new Sink();
    expect(await runTrustCommand(['--never'], { cwd: project, env, stdout: out, stderr: out })).toBe(0);
    expect(await runTrustCommand(['--parent'], { cwd: sibling, env, stdout: out, stderr: out })).toBe(0);
    const show = new Sink();
    await runTrustCommand(['--show'], { cwd: project, env, stdout: show, stderr: show });
    expect(show.text).toMatch(/: not trusted \(rule DO_NOT_TRUST/);
    // The sibling itself is still covered by its parent rule.
    expect(ruleFor({ [project]: 'DO_NOT_TRUST', [sibling]: 'TRUST_PARENT' }, sibling)?.level).toBe('TRUST_PARENT');
  });

  it('at equal depth DO_NOT_TRUST wins, whatever the stored key lengths', () => {
    const root = tempDir('gmc-trustdepth-');
    const folder = join(root, 'x');
    const child = join(folder, 'child-with-long-name');
    mkdirSync(child, { recursive: true });
    // TRUST_PARENT stored under the child covers `folder` — the same folder the DO_NOT_TRUST names.
    expect(ruleFor({ [folder]: 'DO_NOT_TRUST', [child]: 'TRUST_PARENT' }, folder)?.level).toBe('DO_NOT_TRUST');
    expect(ruleFor({ [child]: 'TRUST_PARENT', [folder]: 'DO_NOT_TRUST' }, folder)?.level).toBe('DO_NOT_TRUST');
    // The deeper rule still decides below it.
    expect(ruleFor({ [folder]: 'DO_NOT_TRUST', [child]: 'TRUST_FOLDER' }, child)?.level).toBe('TRUST_FOLDER');
  });
});

describe('context.fileName is a plain name', () => {
  const endpoint = scriptedEndpoints();

  it('"../.ssh/id_rsa" is refused with a notice and never reaches the model; plain names still load', async () => {
    const ws = workspace();
    mkdirSync(join(ws.home, '.ssh'), { recursive: true });
    writeFileSync(join(ws.home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL');
    writeFileSync(join(ws.cwd, '..', 'OUTSIDE.md'), 'OUTSIDE-SECRET');
    ws.file('AGENTS.md', 'agents rule');
    ws.settings({
      ...ONLY('memory'),
      context: { fileName: ['../.ssh/id_rsa', '../OUTSIDE.md', `${ws.home}/.ssh/id_rsa`, 'AGENTS.md'] },
    });
    // From the project folder, ../.ssh/id_rsa would be <root>/.ssh; from ~/.gemini it is ~/.ssh/id_rsa.
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'hi'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const system = ep.requestsOf('streamGenerateContent')[0]!.body.systemInstruction.parts[0].text as string;
    expect(system).toContain('agents rule');
    expect(system).not.toContain('PRIVATE-KEY-MATERIAL');
    expect(system).not.toContain('OUTSIDE-SECRET');
    expect(r.stderr).toMatch(/Ignored context\.fileName "\.\.\/\.ssh\/id_rsa".*plain file name/);
  });

  it('the memory server refuses a path given as --context-file-name on its own', async () => {
    const home = tempDir('gmc-ctxname-');
    const root = join(home, 'proj');
    mkdirSync(join(home, '.gemini'), { recursive: true });
    mkdirSync(root, { recursive: true });
    writeFileSync(join(home, 'id_rsa'), 'PRIVATE-KEY-MATERIAL');
    writeFileSync(join(root, 'GEMINI.md'), 'plain context');
    const s = await startMemory(home, root, { args: ['--context-file-name', '../id_rsa'] });
    const r = await s.client.readResource({ uri: 'gemini-memory://context' });
    const text = (r.contents[0] as { text: string }).text;
    expect(text).not.toContain('PRIVATE-KEY-MATERIAL');
    expect(text).toContain('plain context'); // falls back to GEMINI.md
    await s.call('save_memory', { fact: 'x' });
    expect(s.stderr()).toMatch(/Ignored context\.fileName "\.\.\/id_rsa"/);
  });
});

describe('configuration files are read only when regular and small, never blocking', () => {
  it("a context file's @import of a FIFO fails that import at once; the rest of the context loads", async () => {
    const home = tempDir('gmc-ctxfifo-');
    const root = join(home, 'proj');
    mkdirSync(join(home, '.gemini'), { recursive: true });
    mkdirSync(root, { recursive: true });
    mkfifo(join(root, 'pipe.md'));
    writeFileSync(join(root, 'GEMINI.md'), 'before\n@./pipe.md\nafter');
    const s = await startMemory(home, root);
    const r = await s.client.readResource({ uri: 'gemini-memory://context' });
    const text = (r.contents[0] as { text: string }).text;
    expect(text).toContain('before');
    expect(text).toContain('<!-- Import failed: ./pipe.md - not a regular file -->');
    expect(text).toContain('after');
  });

  it('readConfigFile refuses a FIFO, a directory, /dev/zero and an oversized file, naming each', () => {
    const dir = tempDir('gmc-cfgread-');
    const fifo = join(dir, 'fifo.json');
    mkfifo(fifo);
    expect(() => readConfigFile(fifo)).toThrow(`Refusing to read ${fifo}: it is a named pipe (FIFO)`);
    expect(() => readConfigFile(dir)).toThrow(/it is a directory/);
    expect(() => readConfigFile('/dev/zero')).toThrow(/it is a device/);
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 9 * 1024 * 1024);
    expect(() => readConfigFile(big)).toThrow(new RegExp(`Refusing to read ${big}: it is larger than 8 MB`));
    expect(readConfigFile(join(dir, 'missing.json'))).toBeUndefined();
    writeFileSync(join(dir, 'ok.json'), '{}');
    expect(readConfigFile(join(dir, 'ok.json'))).toBe('{}');
    expect(readConfigFile(join(dir, 'ok.json'), 2)).toBe('{}');
    expect(() => readConfigFile(join(dir, 'ok.json'), 1)).toThrow(/larger than/);
  });

  it('readConfigFileHead reads the start of a file of any size, with the same refusals', () => {
    const dir = tempDir('gmc-cfghead-');
    const fifo = join(dir, 'fifo.jsonl');
    mkfifo(fifo);
    expect(() => readConfigFileHead(fifo, 100)).toThrow(`Refusing to read ${fifo}: it is a named pipe (FIFO)`);
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, '{"first":"line"}\n');
    truncateSync(big, 9 * 1024 * 1024);
    expect(readConfigFileHead(big, 17)).toBe('{"first":"line"}\n');
    expect(readConfigFileHead(big, 5)).toBe('{"fir');
    writeFileSync(join(dir, 'short.jsonl'), 'ab');
    expect(readConfigFileHead(join(dir, 'short.jsonl'), 100)).toBe('ab');
    expect(readConfigFileHead(join(dir, 'missing.jsonl'), 100)).toBeUndefined();
  });

  it('a FIFO user settings file, .env, or trusted-folders file ends the run with exit 52 naming it, at once', async () => {
    for (const which of ['settings', 'env', 'trust'] as const) {
      const ws = workspace();
      const file =
        which === 'settings'
          ? join(ws.home, '.gemini', 'settings.json')
          : which === 'env'
            ? join(ws.home, '.gemini', '.env')
            : join(ws.home, '.gemini', 'trustedFolders.json');
      if (which !== 'settings') ws.settings(ONLY());
      mkfifo(file);
      // Workspace settings make the trust file worth reading.
      if (which === 'trust') ws.file('.gemini/settings.json', '{}');
      const r = await runHost(['-p', 'hi'], { ws, url: 'http://127.0.0.1:9' });
      expect(r.code, `${which}: ${r.stderr}`).toBe(52);
      expect(r.stderr).toContain(`Refusing to read ${file}: it is a named pipe (FIFO)`);
    }
  });

  it("an untrusted workspace's FIFO settings file is skipped, not fatal", () => {
    const ws = workspace();
    mkdirSync(join(ws.cwd, '.gemini'));
    mkfifo(join(ws.cwd, '.gemini', 'settings.json'));
    const loaded = loadSettings({ cwd: ws.cwd, env: { GEMINI_CLI_HOME: ws.home } });
    expect(loaded.trust.trusted).toBe(false);
    expect(loaded.skipped.join('\n')).toMatch(/settings\.json \(it does not parse: Refusing to read .*FIFO/);
  });
});
