import {
  EDITOR_FILES,
  EditorFilesCapabilitySchema,
  READ_TEXT_FILE,
  ReadTextFileResultSchema,
  WRITE_TEXT_FILE,
  WriteTextFileResultSchema,
} from '../../protocol/editor-files.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ElicitResultSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { z } from 'zod';
import { requestConfirmation } from './confirmation.js';
import type { Logger } from './logger.js';
import { META } from '../../protocol/meta.js';
import { ToolError, errorResult } from './result.js';
import { type ClientRootsOutcome, WorkspaceRoots } from './roots.js';
import type { EditorFileAccess, ToolContext, ToolDefinition } from './tool.js';
import { boundResultSize } from './result-bound.js';
import { LineLimitedStdioTransport } from './stdio-transport.js';
import { lazySchemaValidator } from '../../protocol/lazy-schema-validator.js';

export interface KitServerSpec {
  name: string;
  version: string;
  instructions?: string;
  tools: ToolDefinition[];
  log: Logger;
  /** Command-line roots: the ceiling; the client's MCP roots may narrow them, never widen them. */
  roots?: string[];
  projectTempDir?: string;
  /** Upper bound of a serialized result (below the stdio transport's 10 MB). */
  maxResultBytes?: number;
  /** Called after the client's roots were (re)applied. */
  onRootsChanged?: () => void;
  /** Called when the connection closes (stdin end, SIGTERM, HTTP session end). */
  onClose?: () => void | Promise<void>;
}

export interface KitServer {
  mcp: McpServer;
  roots: WorkspaceRoots;
  /** Resolves once the client's roots (if offered) have been applied; resource handlers await it. */
  rootsReady?: () => Promise<void>;
  /** The names of its tools (metrics label calls only with these). */
  toolNames?: ReadonlySet<string>;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Builds an McpServer from tool definitions: roots handling, the per-call context, error mapping
 * and result bounds are done once here so tool files hold only their own logic.
 */
export function createKitServer(spec: KitServerSpec): KitServer {
  const mcp = new McpServer(
    { name: spec.name, version: spec.version },
    {
      capabilities: { logging: {}, tools: { listChanged: true } },
      instructions: spec.instructions,
      jsonSchemaValidator: lazySchemaValidator(),
    },
  );
  const roots = new WorkspaceRoots(spec.roots ?? [process.cwd()], spec.projectTempDir);
  let rootsReady: Promise<void> = Promise.resolve();
  // A client that declares roots has them asked for before its first call, whether or not its
  // `initialized` notification has been handled yet (over HTTP the two can arrive in either order).
  let rootsFetched = false;
  let rootsStale = false;

  // Asked for as part of a tool call (relatedRequestId): over Streamable HTTP a request that belongs to
  // no call needs the client's standalone stream, which may not be open yet, and would wait for nothing.
  const refreshRoots = async (relatedRequestId: Extra['requestId'] | undefined) => {
    try {
      const { roots: list } = await mcp.server.listRoots(undefined, { timeout: 10_000, relatedRequestId });
      reportRoots(mcp, spec.log, roots, roots.setFromClient(list.map((r) => r.uri)));
      spec.onRootsChanged?.();
    } catch (err) {
      spec.log.warn(`roots/list failed, keeping ${roots.list.join(', ')}: ${(err as Error).message}`);
    }
  };
  const currentRoots = (extra?: Extra): Promise<void> => {
    if (!rootsFetched && mcp.server.getClientCapabilities()?.roots) rootsStale = true;
    if (rootsStale) {
      rootsStale = false;
      rootsFetched = true;
      rootsReady = refreshRoots(extra?.requestId);
    }
    return rootsReady;
  };

  mcp.server.oninitialized = () => {
    if (mcp.server.getClientCapabilities()?.roots) {
      if (!rootsFetched) rootsStale = true;
      // Over stdio nothing stands in the way of asking at once: the answer is then usually in before the
      // first call, instead of a round trip inside it.
      if (rootsStale && mcp.server.transport instanceof LineLimitedStdioTransport) void currentRoots();
      // By now the client's standalone stream is open (it announced a change), and watchers want the new roots at once.
      mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
        rootsStale = false;
        rootsFetched = true;
        rootsReady = refreshRoots(undefined);
        await rootsReady;
      });
    }
  };
  mcp.server.onclose = () => void spec.onClose?.();
  tagSdkToolErrors(mcp);

  for (const def of spec.tools) {
    mcp.registerTool(
      def.name,
      {
        title: def.title,
        description: def.description,
        inputSchema: def.inputSchema,
        annotations: { title: def.title, ...def.annotations },
        ...(def.meta ? { _meta: def.meta } : {}),
      },
      (async (args: unknown, extra: Extra): Promise<CallToolResult> => {
        await currentRoots(extra);
        const ctx = buildContext(mcp, roots, spec.log, extra);
        try {
          const result = await def.handler(args as z.infer<typeof def.inputSchema>, ctx);
          return boundResultSize(result, spec.maxResultBytes);
        } catch (err) {
          if (err instanceof ToolError)
            return boundResultSize(errorResult(err.message, err.errorType, err.display), spec.maxResultBytes);
          spec.log.error(`${def.name}: ${(err as Error).stack ?? err}`);
          return errorResult((err as Error).message ?? String(err), 'unhandled_exception');
        }
      }) as never,
    );
  }
  return { mcp, roots, rootsReady: () => currentRoots(), toolNames: new Set(spec.tools.map((t) => t.name)) };
}

/** Says on stderr and to the client (MCP logging) which offered roots were ignored or cut down, and why. */
function reportRoots(mcp: McpServer, log: Logger, roots: WorkspaceRoots, outcome: ClientRootsOutcome): void {
  const bound = roots.bound.join(', ');
  const lines = [
    ...outcome.ignored.map((u) => `roots: ignoring client root ${u}: outside the operator's roots (${bound})`),
    ...outcome.narrowed.map((u) => `roots: client root ${u} is wider than the operator's roots; keeping ${bound}`),
  ];
  for (const line of lines) {
    log.warn(line);
    mcp.server
      .sendLoggingMessage({ level: 'warning', logger: 'roots', data: line })
      .catch(() => undefined /* the client may not be listening; stderr has it */);
  }
  log.debug(`roots: ${roots.list.join(', ')}`);
}

function buildContext(mcp: McpServer, roots: WorkspaceRoots, log: Logger, extra: Extra): ToolContext {
  const callMeta = extra._meta as Record<string, unknown> | undefined;
  const caps = mcp.server.getClientCapabilities();
  const progressToken = extra._meta?.progressToken;
  let progressCount = 0;
  return {
    signal: extra.signal,
    roots,
    log,
    callId: typeof callMeta?.[META.callId] === 'string' ? (callMeta[META.callId] as string) : undefined,
    terminal: terminalSize(callMeta?.[META.terminal]),
    clientSupportsSampling: !!caps?.sampling,
    elicitForm: formsSupported(caps?.elicitation)
      ? (message, requestedSchema) =>
          extra.sendRequest(
            { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } } as never,
            ElicitResultSchema,
            { signal: extra.signal, timeout: 24 * 3600_000 },
          )
      : undefined,
    confirm: (detail, message) =>
      requestConfirmation(
        {
          clientSupportsElicitation: !!caps?.elicitation,
          callMeta,
          // The user may read a diff for minutes: no SDK timeout, but the call's own cancellation ends it.
          sendRequest: (req) =>
            extra.sendRequest(req as never, ElicitResultSchema, { signal: extra.signal, timeout: 24 * 3600_000 }),
        },
        detail,
        message,
      ),
    progress: async (message, meta) => {
      if (extra.signal.aborted) return;
      try {
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: ++progressCount, message, ...(meta ? { _meta: meta } : {}) },
          });
        } else {
          await extra.sendNotification({
            method: 'notifications/message',
            params: { level: 'info', logger: 'progress', data: message },
          });
        }
      } catch {
        // Progress is best effort: a closed stream must not fail the call.
      }
    },
    sendRequest: (req, schema) => extra.sendRequest(req as never, schema as never, { signal: extra.signal }) as never,
    editorFiles: editorFileAccess(caps?.experimental?.[EDITOR_FILES], extra),
  };
}

/** A terminal size a caller gave: whole numbers in a sane range, else none (nobody types). */
function terminalSize(raw: unknown): { cols: number; rows: number } | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { cols, rows } = raw as { cols?: unknown; rows?: unknown };
  const ok = (n: unknown, max: number): n is number =>
    Number.isInteger(n) && (n as number) >= 2 && (n as number) <= max;
  return ok(cols, 1000) && ok(rows, 500) ? { cols, rows } : undefined;
}

/** An empty elicitation capability (older clients) means forms; one that names only `url` does not. */
function formsSupported(cap: { form?: unknown; url?: unknown } | undefined): boolean {
  return !!cap && (cap.form !== undefined || cap.url === undefined);
}

/** The client's lent files, as the capability says which requests it answers. */
function editorFileAccess(raw: unknown, extra: Extra): EditorFileAccess | undefined {
  const cap = EditorFilesCapabilitySchema.safeParse(raw);
  if (!cap.success || (!cap.data.readTextFile && !cap.data.writeTextFile)) return undefined;
  // The editor may wait on its user (a buffer being saved): no SDK timeout, the call's cancellation ends it.
  const opts = { signal: extra.signal, timeout: 24 * 3600_000 };
  return {
    read: cap.data.readTextFile
      ? async (path) =>
          (
            await extra.sendRequest(
              { method: READ_TEXT_FILE, params: { path } } as never,
              ReadTextFileResultSchema,
              opts,
            )
          ).content
      : undefined,
    write: cap.data.writeTextFile
      ? async (path, content) =>
          void (await extra.sendRequest(
            { method: WRITE_TEXT_FILE, params: { path, content } } as never,
            WriteTextFileResultSchema,
            opts,
          ))
      : undefined,
  };
}

/**
 * The SDK answers schema failures (and unknown tool names) itself with an `isError` result that lacks
 * our errorType (`invalid_tool_params`). Its `createToolError` hook is the one place
 * all of them pass through; if a future SDK drops it, results simply stay untagged.
 */
function tagSdkToolErrors(mcp: McpServer): void {
  const target = mcp as unknown as { createToolError?: (message: string) => CallToolResult };
  const original = target.createToolError;
  if (typeof original !== 'function') return;
  target.createToolError = (message: string) => {
    const result = original.call(mcp, message);
    return { ...result, _meta: { ...result._meta, [META.errorType]: 'invalid_tool_params' } };
  };
}
