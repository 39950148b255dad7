import type { ExecuteOptions } from '../scheduler/executor.js';
import { toDeclaration } from './declarations.js';
import type { FunctionDeclaration } from '@google/genai';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
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
