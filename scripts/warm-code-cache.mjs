// The build's warm-up run: each built bin runs once with GEMINI_MCP_CODE_CACHE=write, so its loader
// (scripts/bin-loader.cjs) writes dist/bin/cache/<bin>-….v8 as it exits, holding what that run
// compiled. Each server answers `initialize` and `tools/list` over stdio and exits as its stdin
// closes; then the host runs one headless prompt against a local stand-in for the Gemini API that
// answers with text. Any failure here only costs the cache: the build goes on and says so.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WAIT_MS = 15_000;

/** Warms every server in parallel, then the host; resolves with the bins whose warm-up failed. */
export async function warmCodeCaches(binDir, names) {
  const home = mkdtempSync(join(tmpdir(), 'gmc-warm-'));
  try {
    const servers = names.filter((n) => n !== 'gemini-mcp');
    const ok = await Promise.all(servers.map((name) => warmServer(binDir, name, home)));
    const failed = servers.filter((_, i) => !ok[i]);
    if (names.includes('gemini-mcp') && !(await warmHost(binDir, home))) failed.push('gemini-mcp');
    if (failed.length) process.stderr.write(`code cache warm-up failed for ${failed.join(', ')} (they still run)\n`);
    return failed;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function run(binDir, name, args, home, env = {}) {
  return spawn(process.execPath, [join(binDir, `${name}.mjs`), ...args], {
    cwd: home,
    env: { ...process.env, HOME: home, GEMINI_CLI_HOME: home, GEMINI_MCP_CODE_CACHE: 'write', ...env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
}

function exited(child) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_MS);
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

function warmServer(binDir, name, home) {
  const args = ['--root', home];
  if (name.endsWith('discovery-bridge')) args.push('--discovery-command', `${JSON.stringify(process.execPath)} -e 0`);
  const child = run(binDir, name, args, home);
  converse(child);
  return exited(child);
}

/** One headless prompt; the stand-in answers every generate call with a short text. */
async function warmHost(binDir, home) {
  const answer = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] };
  const api = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!req.url.includes('streamGenerateContent')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(answer));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(answer)}\n\n`);
    });
  });
  await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
  try {
    const child = run(binDir, 'gemini-mcp', ['-p', 'Say ok.'], home, {
      GEMINI_API_KEY: 'warm-up',
      GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${api.address().port}`,
    });
    child.stdin.end();
    child.stdout.resume();
    return await exited(child);
  } finally {
    api.close();
  }
}

/** initialize → initialized → tools/list, then closes stdin: the server's normal end of session. */
function converse(child) {
  const send = (msg) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      let id;
      try {
        id = JSON.parse(line).id;
      } catch {
        continue;
      }
      if (id === 1) {
        send({ method: 'notifications/initialized' });
        send({ id: 2, method: 'tools/list', params: {} });
      } else if (id === 2) child.stdin.end();
    }
  });
  child.stdin.on('error', () => {});
  send({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'warm-up', version: '1' } },
  });
}
