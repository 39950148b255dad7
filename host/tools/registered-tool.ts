import type { ExecuteOptions } from '../scheduler/executor.js';
import { checkedDeclaration, toDeclaration } from './declarations.js';
import type { FunctionDeclaration } from '@google/genai';
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ServerState } from '../mcp/client-manager.js';
import { META } from '../../protocol/meta.js';
import { exposedName } from './naming.js';
import type { ToolRef } from '../scheduler/types.js';
import { HOST_TOOLS_ALIAS } from './tool-search.js';

/** The registry's entry: the tool, plus what only the registry uses (annotations, its declaration). */
export interface RegisteredTool extends ToolRef {
  annotations: ToolAnnotations;
  declaration: FunctionDeclaration;
}

/**
 * What a host tool's handler gets besides its arguments: the call's id, its turn's signal and progress
 * callback, and whether policy allowed it.
 */
export interface HostCallContext extends ExecuteOptions {
  /** Policy allowed the call before it ran; otherwise a tool that asks in-call asks now. */
  preapproved: boolean;
}

/**
 * The registry entry of a tool the host itself provides (search_tools, the resource tools): read-only,
 * trusted, registered under the host alias and declared under its bare name.
 */
export function hostToolEntry(name: string, title: string, description: string, schema: object): RegisteredTool {
  const inputSchema = schema as Record<string, unknown>;
  return {
    exposedName: name,
    serverAlias: HOST_TOOLS_ALIAS,
    toolName: name,
    title,
    description,
    readOnly: true,
    confirmsInCall: false,
    trusted: true,
    builtIn: true,
    inputSchema,
    annotations: { readOnlyHint: true },
    declaration: toDeclaration(name, description, inputSchema),
  };
}

/**
 * The registry entry of a server's tool under its exposed name, with the problem that keeps it out of the
 * registry when its schema cannot be declared.
 */
export function serverToolEntry(state: ServerState, tool: Tool): { reg: RegisteredTool; problem?: string } {
  const { config } = state;
  const annotations: ToolAnnotations = tool.annotations ?? {};
  const believed = config.builtIn || config.trust;
  const meta = (tool._meta ?? {}) as Record<string, unknown>;
  const name = exposedName(state.alias, tool.name);
  const description = tool.description ?? tool.title ?? annotations.title ?? '';
  const max = meta[META.maxResultSizeChars];
  const { declaration, problem } = checkedDeclaration(name, description, tool.inputSchema as Record<string, unknown>);
  const reg: RegisteredTool = {
    exposedName: name,
    serverAlias: state.alias,
    toolName: tool.name,
    title: tool.title ?? annotations.title,
    description,
    // Hints from an arbitrary server are not believed: a lying readOnlyHint would skip approval.
    readOnly: believed && annotations.readOnlyHint === true,
    confirmsInCall: meta[META.confirms] === true,
    trusted: config.trust,
    builtIn: config.builtIn,
    // Only what the host itself arranged counts: a server's own claim is not believed.
    sandboxed: config.sandbox !== undefined || (config.sandboxed === true && meta[META.sandboxed] === true),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    annotations,
    declaration,
    ...(typeof max === 'number' ? { maxResultSizeChars: max } : {}),
  };
  return { reg, problem };
}
