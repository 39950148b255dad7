import * as acp from '@agentclientprotocol/sdk';
import { type CliArgs, sessionFlags } from '../cli-args.js';
import type { HostLogger } from '../log.js';
import type { EditorFiles } from '../../protocol/editor-files.js';
import { AcpSession } from './acp-session.js';
import { availableCommands } from './commands.js';
import { heldBackMessage, withEditorServers } from './editor-servers.js';
import { AcpConfirmer } from './permissions.js';
import { editorAsker } from './editor-forms.js';
import { replayUpdates } from './replay.js';
import { safeBlock } from '../safe-text.js';

/** Notices name files and quote servers and settings: made safe before they reach the terminal. */
const notice = (m: string) => void process.stderr.write(safeBlock(`gemini-mcp: ${m}\n`));

export interface SessionDeps {
  args: CliArgs;
  client: acp.AgentContext;
  caps: acp.ClientCapabilities;
  log: HostLogger;
}

/**
 * The editor's `fs/*` methods, when it advertises them, lent to our filesystem server through the MCP
 * client (docs/editor-file-system.md): reads see unsaved buffers, edits land in the editor's undo history.
 */
function editorFiles(deps: SessionDeps, sessionId: () => string): EditorFiles | undefined {
  const fs = deps.caps.fs;
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  const { client } = deps;
  return {
    readTextFile: fs.readTextFile
      ? async (path, signal) =>
          (
            await client.request(
              acp.methods.client.fs.readTextFile,
              { sessionId: sessionId(), path },
              { cancellationSignal: signal },
            )
          ).content
      : undefined,
    writeTextFile: fs.writeTextFile
      ? async (path, content, signal) =>
          void (await client.request(
            acp.methods.client.fs.writeTextFile,
            { sessionId: sessionId(), path, content },
            { cancellationSignal: signal },
          ))
      : undefined,
  };
}

/** A recorded session of this project with exactly this id (a load never guesses from a prefix). */
async function recordedSession(cwd: string, id: string): Promise<void> {
  const { loadSettings } = await import('../load-settings.js');
  const { ensureProjectTempDir } = await import('../config/paths.js');
  const { hasSession } = await import('../sessions/store.js');
  const env = loadSettings({ cwd }).env;
  if (!hasSession(ensureProjectTempDir(cwd, env), id, false)) throw acp.RequestError.resourceNotFound(id);
}

/**
 * `session/new` and `session/load`: the host session with the editor's MCP servers beside the configured
 * ones and the editor as the one who confirms. A load continues the recorded session (same id, same file)
 * and replays its whole history as updates before the answer goes out, as the protocol asks.
 */
export async function openSession(deps: SessionDeps, p: acp.NewSessionRequest, resume?: string): Promise<AcpSession> {
  const { args, client, log } = deps;
  if (resume !== undefined) await recordedSession(p.cwd, resume);
  const { loadSettings } = await import('../load-settings.js');
  const { createSession } = await import('../core/session.js');
  const base = loadSettings({ cwd: p.cwd, skipTrust: args.skipTrust, extensions: args.extensions });
  const { settings, skipped, heldBack } = withEditorServers(base, p.mcpServers ?? []);
  for (const name of skipped) log.warn(`editor MCP server "${name}" skipped: a configured server has that name`);
  for (const name of heldBack) notice(heldBackMessage(name));
  // The confirmer needs the session id, known only once the recorder exists.
  const ref: { id?: string } = {};
  const confirmer = new AcpConfirmer(
    () => ref.id ?? '',
    p.cwd,
    (params, signal) =>
      client.request(acp.methods.client.session.requestPermission, params, { cancellationSignal: signal }),
  );
  const session = await createSession({
    ...sessionFlags(args),
    editorFiles: editorFiles(deps, () => ref.id ?? ''),
    cwd: p.cwd,
    settings,
    interactive: true,
    confirmer,
    asker: editorAsker(deps.caps, client, () => ref.id ?? '', notice),
    includeDirectories: [...args.includeDirectories, ...(p.additionalDirectories ?? [])],
    // The editor names the session to continue (session/load) or asks for a new one; `-r` and
    // `--session-id` name one session, and an editor opens many.
    resume,
    resumeOurs: true,
    sessionId: undefined,
    log,
    notify: notice,
  });
  ref.id = session.sessionId;
  for (const n of session.runtime.notices) notice(n);
  const send = (update: acp.SessionUpdate) =>
    client.notify(acp.methods.client.session.update, { sessionId: session.sessionId, update });
  const s = new AcpSession(session.sessionId, p.cwd, session, send, (m) => log.warn(m));
  // The editor shows its servers as attached: it is told, in the conversation, which ones did not start
  // (once the answer with the session id is out, as the available commands are).
  const told = heldBack.map((name) => `${heldBackMessage(name)}\n`).join('');
  if (told)
    setImmediate(() => void send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: told } }));
  if (session.resumed) {
    await session.runtime.manager.whenReady();
    for (const update of replayUpdates(session.resumed.transcript, session.runtime.registry, p.cwd)) await send(update);
  }
  return s;
}

const lastCommands = new WeakMap<AcpSession, string>();

/**
 * `available_commands_update`: built-in commands, custom commands and the MCP prompts of the session's
 * servers, sent once the servers have started and again whenever the list changes (a server connects,
 * fails or re-lists; a command file is added, removed or edited, seen when a prompt starts).
 */
export async function sessionCommands(s: AcpSession, client: acp.AgentContext): Promise<void> {
  const { manager } = s.session.runtime;
  const send = async (): Promise<void> => {
    const list = availableCommands(s.session);
    const key = JSON.stringify(list);
    if (lastCommands.get(s) === key) return;
    lastCommands.set(s, key);
    await client.notify(acp.methods.client.session.update, {
      sessionId: s.id,
      update: { sessionUpdate: 'available_commands_update', availableCommands: list },
    });
  };
  await manager.whenReady();
  await send();
  let queued = false;
  const again = (): void => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      send().catch(() => {});
    });
  };
  manager.on('prompts_changed', again);
  manager.on('status', again);
  s.onCommandsChanged(again);
}
