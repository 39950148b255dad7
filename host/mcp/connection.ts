import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type Prompt,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { lazySchemaValidator } from '../../protocol/lazy-schema-validator.js';
import { VERSION } from '../../protocol/version.js';
import { EDITOR_FILES, type EditorFiles } from '../../protocol/editor-files.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import type { HostLogger } from '../log.js';
import { answerServerRequests, type ServerRequestAnswers } from './server-request-answers.js';
import { startNow } from './early-start.js';
import type { StderrTail } from './stderr-tail.js';
import { createTransport, transportPlan, transportPid, type ConcreteTransport } from './transports.js';
import { transportReplica } from './replica-id.js';

export const CLIENT_INFO = { name: 'gemini-mcp-cli', version: VERSION };
export const LIST_TIMEOUT_MS = 30_000;
const MAX_PAGES = 1000;

export type ListKind = 'tools' | 'prompts' | 'resources';

/** The server's requests, answered by server-request-answers.ts, and what the connection reports. */
export interface ConnectionHooks extends ServerRequestAnswers {
  /** The connection ended without close() having been called (process exit, network loss). */
  closed(conn: ServerConnection, reason: string): void;
  listChanged(conn: ServerConnection, what: 'tools' | 'prompts' | 'resources'): void;
  resourceUpdated(uri: string): void;
}

export interface ConnectOptions {
  config: ResolvedServerConfig;
  stderr: StderrTail;
  log: HostLogger;
  connectTimeoutMs: number;
  /** Ends a pending connect at once (the host is closing): a hung server must not hold the exit. */
  signal?: AbortSignal;
  hooks: ConnectionHooks;
  /** Sent as `logging/setLevel` to servers that log: 'debug' under --debug, else only warnings and worse. */
  logLevel?: 'debug' | 'warning';
  /**
   * The connection is initialized; its lists are still on their way (`open` resolves once they are in).
   * A call that changes nothing may already go (`whenCallable` in tool-call.ts).
   */
  onInitialized?: (conn: ServerConnection) => void;
}

/**
 * `client.connect` (the initialize handshake), cancelled if the session closes meanwhile. The SDK keeps
 * listening to a request's signal after the answer: handed the session's own signal, closing the session
 * would later "cancel" the long-finished initialize, which a client must never do.
 */
async function initialize(client: Client, transport: Transport, opts: ConnectOptions): Promise<void> {
  const connecting = new AbortController();
  const abort = () => connecting.abort(opts.signal?.reason);
  if (opts.signal?.aborted) abort();
  opts.signal?.addEventListener('abort', abort, { once: true });
  try {
    await client.connect(transport, { timeout: opts.connectTimeoutMs, signal: connecting.signal });
  } finally {
    opts.signal?.removeEventListener('abort', abort);
  }
}

/** The experimental capability that tells our filesystem server it may use the editor's files. */
function editorCapability(files: EditorFiles | undefined): { experimental?: Record<string, object> } {
  if (!files?.readTextFile && !files?.writeTextFile) return {};
  return {
    experimental: { [EDITOR_FILES]: { readTextFile: !!files.readTextFile, writeTextFile: !!files.writeTextFile } },
  };
}

/** One live session with one server: the SDK client, its transport and what the server offers. */
export class ServerConnection {
  tools: Tool[] = [];
  prompts: Prompt[] = [];
  resources: Resource[] = [];
  instructions?: string;
  closing = false;
  lostReason?: string;
  /** Re-listing in flight per kind, and whether another notification came in meanwhile. */
  private readonly refreshing = new Map<ListKind, Promise<void>>();
  private readonly again = new Set<ListKind>();

  private constructor(
    readonly client: Client,
    readonly transport: Transport,
    readonly kind: ConcreteTransport,
    private readonly opts: ConnectOptions,
  ) {}

  get pid(): number | undefined {
    return transportPid(this.transport);
  }

  get replicaId(): string | undefined {
    return this.kind === 'stdio' ? undefined : transportReplica(this.transport);
  }

  /** Connects (with the HTTP → SSE fallback for `auto`) and lists tools, prompts and resources. */
  static async open(opts: ConnectOptions): Promise<ServerConnection> {
    const plan = transportPlan(opts.config);
    let lastError: unknown;
    for (const kind of plan) {
      const transport = await createTransport(opts.config, kind, opts.stderr, (s) =>
        opts.log.debug(`[${opts.config.alias}] ${s.trimEnd()}`),
      );
      if (transport instanceof StdioClientTransport) startNow(transport);
      const client = new Client(CLIENT_INFO, {
        // Form elicitation with defaults applied, URL elicitation and sampling (text and images, no tools).
        capabilities: {
          roots: { listChanged: true },
          elicitation: { form: { applyDefaults: true }, url: {} },
          sampling: {},
          ...editorCapability(opts.hooks.editorFiles),
        },
        jsonSchemaValidator: lazySchemaValidator(),
      });
      const conn = new ServerConnection(client, transport, kind, opts);
      conn.installHandlers();
      try {
        await initialize(client, transport, opts);
      } catch (err) {
        lastError = err;
        conn.closing = true;
        await client.close().catch(() => {});
        if (opts.signal?.aborted) break;
        if (plan.length > 1) opts.log.debug(`[${opts.config.alias}] ${kind} connect failed: ${(err as Error).message}`);
        continue;
      }
      try {
        conn.instructions = client.getInstructions();
        // Not awaited: requests reach the server in order, so the level is set before any call, and the
        // first call (a lazy server's reason to start) need not wait for the answer's round trip.
        if (client.getServerCapabilities()?.logging) {
          void client
            .setLoggingLevel(opts.logLevel ?? 'warning')
            .catch((e) => opts.log.debug(`[${opts.config.alias}] logging/setLevel: ${e.message}`));
        }
        opts.onInitialized?.(conn);
        await conn.refreshAll();
      } catch (err) {
        await conn.close();
        throw err;
      }
      return conn;
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  private installHandlers(): void {
    const { client, opts } = this;
    answerServerRequests(client, opts.hooks);
    // One handler per method (a later setNotificationHandler replaces the earlier one), and our own
    // paginated refresh instead of the SDK's first-page-only listChanged option.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.relist('tools'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.relist('prompts'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.relist('resources'));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => opts.hooks.resourceUpdated(n.params.uri));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      const { level, data } = n.params;
      const text = typeof data === 'string' ? data : JSON.stringify(data);
      opts.log[logLevelOf(level)](`[${opts.config.alias}] log ${level}: ${text}`);
    });
    client.onerror = (err) => opts.log.debug(`[${opts.config.alias}] transport error: ${err.message}`);
    client.onclose = () => {
      if (this.closing) return;
      this.lostReason ??= this.kind === 'stdio' ? 'the server process exited' : 'the connection was closed';
      opts.hooks.closed(this, this.lostReason);
    };
  }

  /**
   * Re-lists at once (no debounce: a tool added now must be in the very next model request). A burst of
   * notifications costs at most one more listing after the one in flight.
   */
  private relist(what: ListKind): void {
    if (this.refreshing.has(what)) {
      this.again.add(what);
      return;
    }
    const run = async (): Promise<void> => {
      do {
        this.again.delete(what);
        await (what === 'tools'
          ? this.refreshTools()
          : what === 'prompts'
            ? this.refreshPrompts()
            : this.refreshResources());
        if (this.closing) return;
        this.opts.hooks.listChanged(this, what);
      } while (this.again.has(what));
    };
    const p = run()
      .catch((err) =>
        this.opts.log.warn(`[${this.opts.config.alias}] re-listing ${what} failed: ${(err as Error).message}`),
      )
      .finally(() => this.refreshing.delete(what));
    this.refreshing.set(what, p);
  }

  /** Resolves once every re-listing started by a list_changed notification has been applied. */
  async whenFresh(): Promise<void> {
    while (this.refreshing.size) await Promise.all(this.refreshing.values());
  }

  async refreshAll(): Promise<void> {
    await Promise.all([this.refreshTools(), this.refreshPrompts(), this.refreshResources()]);
  }

  async refreshTools(): Promise<void> {
    if (!this.client.getServerCapabilities()?.tools) return;
    this.tools = await paginate((cursor) =>
      this.client
        .listTools(cursor ? { cursor } : undefined, { timeout: LIST_TIMEOUT_MS })
        .then((r) => ({ items: r.tools, next: r.nextCursor })),
    );
  }

  async refreshPrompts(): Promise<void> {
    if (!this.client.getServerCapabilities()?.prompts) return;
    this.prompts = await paginate((cursor) =>
      this.client
        .listPrompts(cursor ? { cursor } : undefined, { timeout: LIST_TIMEOUT_MS })
        .then((r) => ({ items: r.prompts, next: r.nextCursor })),
    );
  }

  async refreshResources(): Promise<void> {
    if (!this.client.getServerCapabilities()?.resources) return;
    this.resources = await paginate((cursor) =>
      this.client
        .listResources(cursor ? { cursor } : undefined, { timeout: LIST_TIMEOUT_MS })
        .then((r) => ({ items: r.resources, next: r.nextCursor })),
    );
  }

  async sendRootsChanged(): Promise<void> {
    await this.client.sendRootsListChanged();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client.close().catch(() => {});
  }
}

/** Follows `nextCursor` until absent; a server without the method counts as empty. */
async function paginate<T>(page: (cursor?: string) => Promise<{ items: T[]; next?: string }>): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    let r: { items: T[]; next?: string };
    try {
      r = await page(cursor);
    } catch (err) {
      if (err instanceof McpError && err.code === ErrorCode.MethodNotFound) return out;
      throw err;
    }
    out.push(...r.items);
    if (!r.next || seen.has(r.next)) break;
    seen.add(r.next);
    cursor = r.next;
  }
  return out;
}

/** An MCP (syslog) log level as the host logger's: notice is info, everything above warning an error. */
function logLevelOf(level: string): 'debug' | 'info' | 'warn' | 'error' {
  if (level === 'debug') return 'debug';
  if (level === 'info' || level === 'notice') return 'info';
  return level === 'warning' ? 'warn' : 'error';
}
