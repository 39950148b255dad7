// The conformance suite's client under test: the host's own MCP client (McpClientManager with its
// ClientRequests), driven the way a person would drive it. It connects to the URL the suite appends,
// lists the tools and calls each one; forms are answered as a user pressing Enter on the pre-filled
// form (the schema's defaults). Bundled by run.mjs; never imported by the product.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpClientManager } from '../../host/mcp/client-manager.js';
import { signIn } from '../../host/mcp/oauth/sign-in.js';
import { ClientRequests } from '../../host/mcp/client-requests.js';
import { buildContent, initialText } from '../../host/mcp/elicitation-form.js';

const url = process.argv[process.argv.length - 1]!;
const requests = new ClientRequests({ trusted: () => true, notify: (m) => process.stderr.write(`${m}\n`) });
requests.setAsker({
  fillForm: async ({ form }) => {
    const built = buildContent(form, Object.fromEntries(form.fields.map((f) => [f.key, initialText(f)])));
    return built.ok ? { action: 'accept', content: built.content } : { action: 'decline' };
  },
  approveSampling: async () => 'once',
});
// OAuth as `gemini-mcp mcp auth` does it, with this process as the browser (the suite's authorization
// server approves at once); a pre-registered client comes in the scenario's context.
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
};
const oauth = {
  serverName: 'conformance',
  tokenFile: join(mkdtempSync(join(tmpdir(), 'conformance-oauth-')), 'tokens.json'),
  clientId: context.client_id,
  clientSecret: context.client_secret,
};
const manager = new McpClientManager({
  servers: [{ alias: 'conformance', builtIn: false, trust: true, transport: 'http', url, timeoutMs: 20_000, oauth }],
  roots: [process.cwd()],
  clientRequests: requests,
});
const ARGS: Record<string, Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };
try {
  await manager.connectAll(20_000);
  if (/needs authentication/.test(manager.state('conformance')?.error ?? '')) {
    const browse = (line: string) => {
      const found = /(https?:\/\/\S+)/.exec(line);
      if (found) void fetch(found[1]!).catch(() => undefined);
    };
    await signIn({ config: oauth, serverUrl: url, say: browse, signal: AbortSignal.timeout(20_000) });
    await manager.restart('conformance');
  }
  const state = manager.state('conformance')!;
  if (state.status !== 'connected') throw new Error(state.error ?? state.status);
  for (const tool of state.tools) {
    const r = await manager.callTool('conformance', tool.name, ARGS[tool.name] ?? {}).catch((e: Error) => e);
    process.stdout.write(`${tool.name}: ${r instanceof Error ? r.message : JSON.stringify(r).slice(0, 200)}\n`);
  }
} catch (err) {
  process.stderr.write(`client failed: ${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await manager.close();
}
