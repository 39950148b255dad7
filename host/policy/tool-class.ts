import { DISCOVERY_ALIAS } from '../config/server-names.js';
import type { ToolRef } from '../scheduler/types.js';

/**
 * How policy sees a tool. `memory` is an edit that autoEdit does not
 * cover; `external` is any tool of a third-party or discovered server that is not trusted read-only.
 */
export type ToolClass = 'read-only' | 'edit' | 'exec' | 'info' | 'memory' | 'external';

/** Built-in servers' tools by `<alias>/<tool>`; annotations of built-ins are trusted, but web_fetch asks. */
const BUILT_IN_CLASSES: Record<string, ToolClass> = {
  'filesystem/list_directory': 'read-only',
  'filesystem/read_file': 'read-only',
  'filesystem/search_file_content': 'read-only',
  'filesystem/glob': 'read-only',
  'filesystem/read_many_files': 'read-only',
  'filesystem/write_file': 'edit',
  'filesystem/replace': 'edit',
  'shell/run_shell_command': 'exec',
  'web/web_fetch': 'info',
  'web/google_web_search': 'read-only',
  'memory/save_memory': 'memory',
};

export function classifyTool(tool: Pick<ToolRef, 'serverAlias' | 'toolName' | 'builtIn' | 'readOnly'>): ToolClass {
  if (tool.builtIn) {
    const known = BUILT_IN_CLASSES[`${tool.serverAlias}/${tool.toolName}`];
    if (known) return known;
    // The discovery bridge's tools publish no trustworthy hints.
    if (tool.serverAlias === DISCOVERY_ALIAS) return 'external';
  }
  // ToolRef.readOnly is only true when the hint comes from a built-in or trusted server.
  return tool.readOnly ? 'read-only' : 'external';
}
