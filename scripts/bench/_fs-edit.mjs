// Edit-diff cost through the real server: a full rewrite of a large file (every line changed), the time
// until the server asks for confirmation, the whole call, and how long pings wait meanwhile.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { bundleModule } from '../bundle.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The SDK client's read buffer copies quadratically on multi-megabyte lines (this edit's result, a 50,000-path
 * glob): bench clients use the host's linear buffer, so that what is timed is the server as the host reads it.
 */
export async function linearBufferClass(dir) {
  const out = bundleModule(join(REPO, 'host/mcp/linear-read-buffer.ts'), join(dir, 'linear-read-buffer.mjs'));
  return (await import(pathToFileURL(out).href)).LinearReadBuffer;
}

/** `bytes` of numbered lines; `variant` changes every line. */
export function linesOf(bytes, variant) {
  const out = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${variant} line ${i}: lorem ipsum dolor sit amet, consectetur adipiscing elit ${i * 7919}`;
    out.push(line);
    size += line.length + 1;
  }
  return `${out.join('\n')}\n`;
}

/**
 * One full rewrite of a `bytes` file: ms until the confirmation arrives, ms for the whole call, and the
 * worst ping wait while it ran. Gives up after `capMs` (reported as `null`).
 */
export async function measureRewrite(entry, bytes, capMs) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gmc-bench-edit-')));
  const file = join(root, 'big.txt');
  writeFileSync(file, linesOf(bytes, 'old'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, '--root', root],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-edit', version: '1' }, { capabilities: { elicitation: {} } });
  let confirmedAt;
  client.setRequestHandler(ElicitRequestSchema, async () => {
    confirmedAt ??= performance.now();
    return { action: 'accept', content: { decision: 'proceed_once' } };
  });
  const LinearReadBuffer = await linearBufferClass(root);
  await client.connect(transport);
  transport._readBuffer = new LinearReadBuffer(64 * 1024 * 1024);
  const content = linesOf(bytes, 'new');
  let worstPing = 0;
  let pings = 0;
  let done = false;
  const pinger = (async () => {
    while (!done) {
      const p0 = performance.now();
      await client.ping({ timeout: capMs + 5000 }).catch(() => undefined);
      worstPing = Math.max(worstPing, performance.now() - p0);
      pings++;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  let callMs = null;
  try {
    await client.callTool({ name: 'write_file', arguments: { file_path: file, content } }, undefined, {
      timeout: capMs,
    });
    callMs = performance.now() - t0;
  } catch {
    // over the cap
  }
  done = true;
  await pinger;
  const confirmMs = confirmedAt === undefined ? null : confirmedAt - t0;
  await client.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
  return { confirmMs, callMs, worstPing, pings };
}
