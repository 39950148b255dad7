import { type Stats, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { CliArgs } from '../cli-args.js';
import { AuthError } from '../core/content-generator.js';
import { createHostLogger } from '../log.js';
import { safeText } from '../safe-text.js';
import { VERSION } from '../../protocol/version.js';
import type { AcpSession } from './acp-session.js';
import { openSession, sessionCommands, type SessionDeps } from './open-session.js';

export const AUTH_METHOD_ID = 'gemini-api-key';

const AUTH_METHODS: acp.AuthMethod[] = [
  {
    id: AUTH_METHOD_ID,
    name: 'Gemini API key',
    description:
      'Set GEMINI_API_KEY (or GOOGLE_API_KEY) in the environment the editor starts gemini-mcp with (for Zed: ' +
      '"env" in its agent_servers entry), or in ~/.gemini/.env; for Vertex AI set GOOGLE_GENAI_USE_VERTEXAI=true ' +
      'with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION. Then start a new session.',
  },
];

/**
 * The editor's folder for a session: an absolute path to a directory that exists. A missing folder, a file
 * or a path with a NUL would otherwise start servers and a recorder in a place that is not a project.
 */
function sessionCwd(cwd: string): string {
  const shown = safeText(cwd);
  if (cwd.includes('\0')) throw acp.RequestError.invalidParams({ cwd: shown }, `Invalid directory path: ${shown}`);
  if (!isAbsolute(cwd)) throw acp.RequestError.invalidParams({ cwd: shown }, `cwd must be an absolute path: ${shown}`);
  let st: Stats;
  try {
    st = statSync(cwd);
  } catch {
    throw acp.RequestError.invalidParams({ cwd: shown }, `Directory does not exist: ${shown}`);
  }
  if (!st.isDirectory()) throw acp.RequestError.invalidParams({ cwd: shown }, `Not a directory: ${shown}`);
  return cwd;
}

/** The failure of opening a session as the editor should see it: missing credentials ask it to authenticate. */
function openFailure(e: unknown): never {
  if (e instanceof acp.RequestError) throw e;
  if (e instanceof AuthError) throw acp.RequestError.authRequired(undefined, e.message);
  throw acp.RequestError.internalError(undefined, (e as Error)?.message ?? String(e));
}

/**
 * The ACP agent: the editor's third view of the host core, next to the chat (host/ui) and headless
 * (host/cli). It speaks ACP through the official SDK, which parses every message against the protocol's
 * schemas (bad params are invalid params, unknown methods method-not-found) before a handler runs.
 */
export function createAcpAgent(args: CliArgs): { app: acp.AgentApp; closeAll(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  const log = createHostLogger({ debug: args.debug });
  const state: { caps: acp.ClientCapabilities } = { caps: {} };

  const session = (id: string): AcpSession => {
    const s = sessions.get(id);
    if (!s) throw acp.RequestError.resourceNotFound(id);
    return s;
  };

  const open = async (ctx: acp.AgentContext, p: acp.NewSessionRequest, resume?: string): Promise<AcpSession> => {
    const deps: SessionDeps = { args, client: ctx, caps: state.caps, log };
    const s = await openSession(deps, { ...p, cwd: sessionCwd(p.cwd) }, resume).catch(openFailure);
    const old = sessions.get(s.id);
    sessions.set(s.id, s);
    if (old) await old.close().catch(() => {});
    // Sent once the answer is out: the editor learns the commands when the servers have listed them.
    setImmediate(() => void sessionCommands(s, ctx).catch((e: unknown) => log.debug(`commands: ${e}`)));
    return s;
  };

  const app = acp
    .agent({ name: 'gemini-mcp' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      state.caps = params.clientCapabilities ?? {};
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: true, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        authMethods: AUTH_METHODS,
        agentInfo: { name: 'gemini-mcp', title: 'Gemini MCP CLI', version: VERSION },
      };
    })
    .onRequest(acp.methods.agent.authenticate, async ({ params }) => {
      if (params.methodId !== AUTH_METHOD_ID)
        throw acp.RequestError.invalidParams(
          { methodId: params.methodId },
          `Unknown auth method "${params.methodId}".`,
        );
      const { resolveAuth } = await import('../core/content-generator.js');
      const { loadSettings } = await import('../load-settings.js');
      const settings = loadSettings({ cwd: process.cwd() });
      try {
        resolveAuth(settings.env, settings.merged.security?.auth?.selectedType);
      } catch (e) {
        throw acp.RequestError.authRequired(undefined, (e as Error).message);
      }
      return {};
    })
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
      const s = await open(client, params);
      return { sessionId: s.id, modes: s.modeState() };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      const s = await open(client, params, params.sessionId);
      return { modes: s.modeState() };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
      const stopReason = await session(params.sessionId).prompt(params.prompt);
      return { stopReason };
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params }) => {
      const s = session(params.sessionId);
      // The session tells the editor of the change (current_mode_update), as it does for any change.
      s.setMode(params.modeId);
      return {};
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  return {
    app,
    closeAll: async () => {
      await Promise.allSettled([...sessions.values()].map((s) => s.close()));
      sessions.clear();
    },
  };
}
