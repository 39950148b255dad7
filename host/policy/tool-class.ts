import { DISCOVERY_ALIAS } from '../config/server-names.js';
import type { ToolRef } from '../scheduler/types.js';
import { builtinTool, type ToolClass } from '../tools/builtin-catalogue.js';

export type { ToolClass };

/**
 * How policy sees a tool: built-ins by their catalogue row (their annotations are trusted, but web_fetch
 * asks); `external` is any tool of a third-party or discovered server that is not trusted read-only.
 */
export function classifyTool(tool: Pick<ToolRef, 'serverAlias' | 'toolName' | 'builtIn' | 'readOnly'>): ToolClass {
  if (tool.builtIn) {
    const known = builtinTool(tool.serverAlias, tool.toolName);
    if (known) return known.cls;
    // The discovery bridge's tools publish no trustworthy hints.
    if (tool.serverAlias === DISCOVERY_ALIAS) return 'external';
  }
  // ToolRef.readOnly is only true when the hint comes from a built-in or trusted server.
  return tool.readOnly ? 'read-only' : 'external';
}
