import type { z } from 'zod';
import type { CallToolResult, ElicitResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ConfirmationDetail, UserAnswer } from '../../protocol/confirmation.js';
import type { Logger } from './logger.js';
import type { WorkspaceRoots } from './roots.js';

/** The editor's side of a text file: its buffer's text, and a write that lands in the editor. */
export interface EditorFileAccess {
  read?(path: string): Promise<string>;
  write?(path: string, content: string): Promise<void>;
}

/** What a handler gets besides its arguments. */
export interface ToolContext {
  signal: AbortSignal;
  roots: WorkspaceRoots;
  log: Logger;
  /** The host's call id (`_meta[META.callId]`), when given. */
  callId?: string;
  /**
   * Asks the user through MCP elicitation before a side effect. Resolves `proceed` directly for
   * clients without elicitation and for pre-approved calls.
   */
  confirm(detail: Omit<ConfirmationDetail, 'callId'>, message: string): Promise<UserAnswer>;
  /**
   * Streams a line of progress to the client (progress notification when a token was sent), with `meta` as
   * the notification's `_meta` when given.
   */
  progress(message: string, meta?: Record<string, unknown>): Promise<void>;
  /** The size of the terminal a person types at (`_meta[META.terminal]`); absent when nobody can type. */
  terminal?: { cols: number; rows: number };
  /**
   * Asks the user to fill in a form (MCP form elicitation); absent when the client cannot show forms. The
   * user may take minutes: only the call's own cancellation ends the wait.
   */
  elicitForm?: (message: string, requestedSchema: Record<string, unknown>) => Promise<ElicitResult>;
  /** Whether the client offered MCP sampling (the web server may answer through it). */
  clientSupportsSampling: boolean;
  /**
   * The editor's files, when the client lends them (`capabilities.experimental[EDITOR_FILES]`): text is read
   * from and written to the editor's buffers. Only after the tool's own path checks; absent, the disk is used.
   */
  editorFiles?: EditorFileAccess;
  /** Sends a request to the client related to this call (sampling, for example). */
  sendRequest: <T extends z.ZodType>(
    req: { method: string; params?: Record<string, unknown> },
    schema: T,
  ) => Promise<z.infer<T>>;
}

/**
 * One tool = one file exporting one of these. The zod schema is the only definition of the
 * contract: the SDK derives the JSON Schema from it and handlers get its inferred type.
 */
export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  annotations: Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;
  /** Extra tool `_meta` (e.g. `META.confirms`). */
  meta?: Record<string, unknown>;
  handler: (args: z.infer<S>, ctx: ToolContext) => Promise<CallToolResult>;
}

/** Keeps the schema's inferred type on the handler while erasing it for tool lists. */
export function defineTool<S extends z.ZodObject>(def: ToolDefinition<S>): ToolDefinition {
  return def as unknown as ToolDefinition;
}

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
