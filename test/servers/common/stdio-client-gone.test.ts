import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
};

// A client that dies (or a pipe like `| head`) closes the server's stdout while its stdin may still be open.
describe.each([
  ['filesystem', ENTRY.filesystem],
  ['shell', ENTRY.shell],
  ['memory', ENTRY.memory],
  ['web', ENTRY.web],
])('%s server whose client stopped reading', (_name, entry) => {
  it('ends quietly with status 0 when its answer cannot be written', async () => {
    const child = spawn(process.execPath, [requireBuilt(entry), '--root', tempDir('gmc-gone-')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const lines = createInterface({ input: child.stdout });
    child.stdin.write(`${JSON.stringify(INIT)}\n`);
    const [first] = (await once(lines, 'line')) as [string];
    expect(JSON.parse(first)).toHaveProperty('result.serverInfo');
    // Our end of its stdout goes away; stdin stays open, so only the failed write can tell it.
    lines.close();
    child.stdout.destroy();
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).not.toMatch(/Unhandled 'error' event|at .*\(node:/);
    expect(stderr).toMatch(/client stopped reading/);
  });
});
