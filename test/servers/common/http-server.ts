import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';

export interface HttpServerProcess {
  port: number;
  child: ChildProcess;
  base: string;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** A built server over Streamable HTTP on 127.0.0.1; resolves once it printed its port. */
export async function startHttpServer(
  entry: string = ENTRY.filesystem,
  args: string[] = [],
  children: ChildProcess[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [requireBuilt(entry), '--transport', 'http', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env,
  });
  children.push(child);
  let stderr = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return { port, child, base, url: `${base}/mcp`, stderr: () => stderr, exited };
}

/** The real SDK client over Streamable HTTP; with `elicit`, it declares elicitation and answers with it. */
export async function connectHttp(
  url: string,
  elicit?: (params: ElicitRequest['params']) => Promise<ElicitResult>,
): Promise<Client> {
  const client = new Client(
    { name: 'team-test', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: {} } : {} },
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(req.params));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
