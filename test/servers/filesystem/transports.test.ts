import { spawn, type ChildProcess, execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bundledModule, ENTRY, REPO } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { textOf } from '../../helpers/mcp.js';

const execFileP = promisify(execFile);
/** execFile that puts the child's stderr into the failure message. */
async function run(cmd: string, args: string[], opts: { cwd: string; timeout: number }) {
  try {
    return await execFileP(cmd, args, opts);
  } catch (err) {
    const e = err as Error & { stderr?: string; stdout?: string };
    throw new Error(`${e.message}\nstdout: ${e.stdout}\nstderr: ${e.stderr}`);
  }
}
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGTERM');
});

/** Starts the HTTP server and resolves the port it printed on stderr (or the exit code when it refused). */
function startHttp(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ port: number; child: ChildProcess } | { exit: number; stderr: string }> {
  const child = spawn(process.execPath, [ENTRY.filesystem, '--transport', 'http', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  return new Promise((resolve) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(stderr);
      if (m) resolve({ port: Number(m[1]), child });
    });
    child.on('exit', (code) => resolve({ exit: code ?? -1, stderr }));
  });
}

async function httpClient(port: number, token?: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: 'http-test', version: '1' });
  await client.connect(transport);
  return client;
}

describe('Streamable HTTP', () => {
  it('serves the tools without a token on loopback', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'h.txt'), 'over http');
    const started = await startHttp(['--root', root]);
    if (!('port' in started)) throw new Error(`server exited: ${started.stderr}`);
    const client = await httpClient(started.port);
    expect((await client.listTools()).tools.map((t) => t.name)).toHaveLength(7);
    const r = (await client.callTool({
      name: 'read_file',
      arguments: { absolute_path: join(root, 'h.txt') },
    })) as CallToolResult;
    expect(textOf(r)).toBe('over http');
    await client.close();
  });

  it('requires the bearer token when configured', async () => {
    const root = tempDir();
    const started = await startHttp(['--root', root, '--token-env', 'FS_TEST_TOKEN'], {
      FS_TEST_TOKEN: 's3cret-token',
    });
    if (!('port' in started)) throw new Error(`server exited: ${started.stderr}`);
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const res = await fetch(`http://127.0.0.1:${started.port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(init),
    });
    expect(res.status).toBe(401);
    await expect(httpClient(started.port, 'wrong-token-xx')).rejects.toThrow();
    const client = await httpClient(started.port, 's3cret-token');
    const r = (await client.callTool({ name: 'list_directory', arguments: { path: root } })) as CallToolResult;
    expect(textOf(r)).toBe(`Directory ${root} is empty.`);
    await client.close();
  });

  it('refuses a non-loopback bind without a token', async () => {
    // A name that only starts like a loopback address is a name: it waived the token before.
    for (const host of ['0.0.0.0', '127.evil.example', '127.0.0.1.nip.io']) {
      const started = await startHttp(['--host', host]);
      expect('exit' in started && started.exit, host).toBe(2);
      expect('stderr' in started && started.stderr, host).toContain('non-loopback');
    }
  });
});

describe('foreign client: @modelcontextprotocol/inspector-cli', () => {
  // The package's own entry resolves its package.json relative to the working directory.
  const cliDir = join(REPO, 'node_modules/@modelcontextprotocol/inspector-cli/build');

  it('lists tools and calls one against the built server', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'i.txt'), 'from inspector');
    const base = ['index.js', process.execPath, ENTRY.filesystem, '--root', root];
    const list = await run(process.execPath, [...base, '--method', 'tools/list'], { cwd: cliDir, timeout: 45_000 });
    const names = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual([
      'list_directory',
      'read_file',
      'write_file',
      'replace',
      'search_file_content',
      'glob',
      'read_many_files',
    ]);
    const call = await run(
      process.execPath,
      [
        ...base,
        '--method',
        'tools/call',
        '--tool-name',
        'read_file',
        '--tool-arg',
        `absolute_path=${join(root, 'i.txt')}`,
      ],
      { cwd: cliDir, timeout: 45_000 },
    );
    expect(JSON.parse(call.stdout).content).toEqual([{ type: 'text', text: 'from inspector' }]);
  });
});

describe('atomic writes', () => {
  it('a writer killed with SIGKILL leaves the old or the new content, never a torn file', async () => {
    const root = tempDir();
    const target = join(root, 'big.bin');
    const size = 16 * 1024 * 1024;
    writeFileSync(target, Buffer.alloc(size, 'o'));
    const writer = bundledModule(join(REPO, 'servers/common/atomic-write.ts'));
    // Alternates two full contents as fast as it can, reporting each completed write.
    const script = `
      const { atomicWrite } = await import(${JSON.stringify(writer)});
      const bufs = [Buffer.alloc(${size}, 'a'), Buffer.alloc(${size}, 'b')];
      for (let i = 0; ; i++) { process.stdout.write('start\\n'); await atomicWrite(${JSON.stringify(target)}, bufs[i % 2]); }
    `;
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      let starts = 0;
      // Kill during a later write, at a different point each round.
      await new Promise<void>((resolve) => {
        child.stdout!.on('data', (d: Buffer) => {
          starts += d.toString().split('start').length - 1;
          if (starts >= 2 + round)
            setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, 5 * round);
        });
      });
      await new Promise((r) => child.once('exit', r));
      const content = readFileSync(target);
      expect(content.length).toBe(size);
      const first = content[0];
      expect(['o', 'a', 'b'].map((c) => c.charCodeAt(0))).toContain(first);
      expect(content.every((b) => b === first)).toBe(true);
    }
  });
});
