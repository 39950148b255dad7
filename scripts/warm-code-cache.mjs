// The build's warm-up run: each built bin runs once with GEMINI_MCP_CODE_CACHE=write, so its loader
// (scripts/bin-loader.cjs) writes dist/bin/cache/<bin>-….v8 as it exits, holding what that run
// compiled. Each server is connected with the SDK's client, lists its tools, makes the read-only calls
// listed below (READ_ONLY_CALLS) and is closed (its stdin ends, its normal end of session); then the host
// runs one headless prompt against the scripted Gemini endpoint the tests use. Any failure here only costs
// the cache: the build goes on and says so.
//
// Why a warm-up rather than letting the first real run write the cache: the first run after a build then
// starts with a cache too (see scripts/loader/code-cache.cjs for what a cache saves), and the cache holds
// what a session compiles rather than whatever that first run happened to be. Measured (Node 20.20, 2
// shared cores, median of 11 headless `-p` runs): a cache written by this warm-up vs one written by a
// first `gemini-mcp --version` run: first model request 171 → 154 ms, exit 186 → 168 ms. For a server's
// first tools/list the two caches are within noise (127 vs 124 ms).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { reply, startScriptedGemini } from './scripted-gemini.mjs';

const WAIT_MS = 15_000;

/** Warms every server in parallel, then the host; resolves with the bins whose warm-up failed. */
export async function warmCodeCaches(binDir, names) {
  const home = mkdtempSync(join(tmpdir(), 'gmc-warm-'));
  mkdirSync(join(home, 'src'));
  writeFileSync(join(home, 'src', 'a.ts'), 'export const a = 1; // TODO: name it\n');
  writeFileSync(join(home, 'src', 'b.ts'), 'export const b = 2;\n');
  const env = warmEnv(home);
  try {
    const servers = names.filter((n) => n !== 'gemini-mcp');
    const ok = await Promise.all(servers.map((name) => warmServer(join(binDir, `${name}.cjs`), home, env)));
    const failed = servers.filter((_, i) => !ok[i]);
    if (names.includes('gemini-mcp') && !(await warmHost(join(binDir, 'gemini-mcp.cjs'), home, env))) {
      failed.push('gemini-mcp');
    }
    if (failed.length) process.stderr.write(`code cache warm-up failed for ${failed.join(', ')} (they still run)\n`);
    return failed;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The builder's environment in a throwaway home, without settings that would pick another model API. */
function warmEnv(home) {
  const env = { ...process.env, HOME: home, GEMINI_CLI_HOME: home, GEMINI_MCP_CODE_CACHE: 'write' };
  for (const k of ['GOOGLE_API_KEY', 'GOOGLE_GENAI_USE_VERTEXAI', 'GEMINI_MODEL', 'CI']) delete env[k];
  return env;
}

/**
 * Calls that change nothing, made once by the warm-up so that the cache holds their code too: without
 * them a session's first glob or search compiled its tool's functions while the model waited for the
 * answer (2–3 ms each for the filesystem server's glob and search on 40 files). They run in the warm-up's
 * home, on the two files `warmCodeCaches` writes there.
 */
const READ_ONLY_CALLS = {
  'gemini-mcp-filesystem': [
    { name: 'list_directory', args: (home) => ({ path: join(home, 'src') }) },
    { name: 'glob', args: () => ({ pattern: '**/*.ts' }) },
    { name: 'search_file_content', args: () => ({ pattern: 'TODO' }) },
    { name: 'read_file', args: (home) => ({ absolute_path: join(home, 'src', 'a.ts') }) },
    { name: 'read_many_files', args: () => ({ paths: ['src/*.ts'] }) },
  ],
};

async function warmServer(entry, home, env) {
  const args = [entry, '--root', home];
  if (entry.endsWith('discovery-bridge.cjs'))
    args.push('--discovery-command', `${JSON.stringify(process.execPath)} -e 0`);
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: home, env, stderr: 'ignore' });
  const client = new Client({ name: 'code-cache-warm-up', version: '1' });
  try {
    await client.connect(transport, { timeout: WAIT_MS });
    await client.listTools(undefined, { timeout: WAIT_MS });
    for (const { name, args } of READ_ONLY_CALLS[basename(entry, '.cjs')] ?? []) {
      const r = await client.callTool({ name, arguments: args(home) }, undefined, { timeout: WAIT_MS });
      if (r.isError) {
        process.stderr.write(
          `code cache warm-up: ${basename(entry, '.cjs')}'s ${name} failed: ${JSON.stringify(r.content)}\n`,
        );
        return false;
      }
    }
    return true;
  } catch {
    return false;
  } finally {
    // Waits for the process to exit, which is when the cache is written.
    await client.close();
  }
}

/** One headless prompt, answered with a short text. */
async function warmHost(entry, home, env) {
  const api = await startScriptedGemini([], {
    responder: (req) =>
      req.method === 'streamGenerateContent' ? reply.text('ok') : reply.json({ reasoning: '', next_speaker: 'user' }),
  });
  try {
    const child = spawn(process.execPath, [entry, '-p', 'Say ok.'], {
      cwd: home,
      env: { ...env, GEMINI_API_KEY: 'warm-up', GOOGLE_GEMINI_BASE_URL: api.url },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    return await new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_MS);
      child.on('error', () => resolve(false));
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve(code === 0);
      });
    });
  } finally {
    await api.close();
  }
}
