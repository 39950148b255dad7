import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import type { Workspace } from '../../helpers/run-host.js';

/** What the test's editor answers a permission request with (an option id), or cancels. */
export type PermissionPolicy = (req: acp.RequestPermissionRequest) => string | 'cancelled';

export interface EditorFs {
  /** Buffer text the editor has for a path (unsaved changes); undefined reads disk. */
  buffers: Map<string, string>;
  writes: { path: string; content: string }[];
}

export interface AcpOptions {
  ws: Workspace;
  url?: string;
  env?: Record<string, string | undefined>;
  args?: string[];
  permission?: PermissionPolicy;
  /** Advertise fs.readTextFile / fs.writeTextFile and serve them from these buffers. */
  fs?: EditorFs;
  /** Advertise form elicitation and answer each `elicitation/create` with this. */
  elicit?: (req: acp.CreateElicitationRequest) => acp.CreateElicitationResponse;
}

/** `gemini-mcp --acp` driven by the SDK's own client over the child's stdio. */
export interface AcpRun {
  child: ChildProcess;
  agent: acp.ClientContext;
  connection: acp.ClientConnection;
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  stdoutLines: () => string[];
  stderr: () => string;
  exited: Promise<number | null>;
  initialize(): Promise<acp.InitializeResponse>;
  /** initialize, then session/new in `cwd` with no editor MCP servers: the new session's id. */
  open(cwd: string): Promise<string>;
  /** session/prompt with one text block. */
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  updatesOf(sessionId: string, kind?: acp.SessionUpdate['sessionUpdate']): acp.SessionUpdate[];
  /** Closes stdin (the editor quits) and waits for the process to exit. */
  close(): Promise<number | null>;
}

export function hostEnv(o: AcpOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GEMINI_CLI_HOME: o.ws.home, GEMINI_MCP_RETRY_DELAY_MS: '20' };
  for (const k of ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENAI_USE_VERTEXAI', 'GOOGLE_GEMINI_BASE_URL', 'CI'])
    delete env[k];
  if (o.url) Object.assign(env, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: o.url });
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function startAcp(o: AcpOptions): AcpRun {
  const child = spawn(process.execPath, [requireBuilt(ENTRY.host), '--acp', ...(o.args ?? [])], {
    cwd: o.ws.cwd,
    env: hostEnv(o),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  let rawOut = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => (rawOut += d));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  let app = acp
    .client({ name: 'test-editor' })
    .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params))
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      const choice = o.permission?.(params) ?? 'reject_once';
      return choice === 'cancelled'
        ? { outcome: { outcome: 'cancelled' } }
        : { outcome: { outcome: 'selected', optionId: choice } };
    });
  if (o.fs) {
    const fs = o.fs;
    app = app
      .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
        const buffered = fs.buffers.get(params.path);
        const { readFile } = await import('node:fs/promises');
        const text = buffered ?? (await readFile(params.path, 'utf8'));
        return { content: text };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        fs.writes.push({ path: params.path, content: params.content });
        fs.buffers.set(params.path, params.content);
        return {};
      });
  }
  if (o.elicit) {
    const elicit = o.elicit;
    app = app.onRequest(acp.methods.client.elicitation.create, ({ params }) => elicit(params));
  }
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  const run: AcpRun = {
    child,
    agent: connection.agent,
    connection,
    updates,
    permissions,
    stdoutLines: () => rawOut.split('\n').filter((l) => l.trim()),
    stderr: () => stderr,
    exited,
    initialize: () =>
      connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {
          ...(o.fs ? { fs: { readTextFile: true, writeTextFile: true } } : {}),
          ...(o.elicit ? { elicitation: { form: {} } } : {}),
        },
        clientInfo: { name: 'test-editor', version: '1.0.0' },
      }),
    open: async (cwd) => {
      await run.initialize();
      return (await connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId;
    },
    prompt: (sessionId, text) =>
      connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] }),
    updatesOf: (sessionId, kind) =>
      updates
        .filter((u) => u.sessionId === sessionId && (!kind || u.update.sessionUpdate === kind))
        .map((u) => u.update),
    close: async () => {
      child.stdin!.end();
      const code = await exited;
      connection.close();
      return code;
    },
  };
  return run;
}

/** The text of a session's agent_message_chunk updates, joined. */
export function messageText(run: AcpRun, sessionId: string): string {
  return run
    .updatesOf(sessionId, 'agent_message_chunk')
    .map((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : ''))
    .join('');
}
