import type { ToolRef } from '../../../host/scheduler/types.js';

/** A tool as policy sees it: mutating, asked-for and untrusted unless `extra` says otherwise. */
export const toolRef = (alias: string, tool: string, extra: Partial<ToolRef> = {}): ToolRef => ({
  exposedName: `${alias}__${tool}`,
  serverAlias: alias,
  toolName: tool,
  description: '',
  inputSchema: { type: 'object' },
  readOnly: false,
  confirmsInCall: false,
  trusted: false,
  builtIn: ['filesystem', 'shell', 'web', 'memory', 'discovered'].includes(alias),
  ...extra,
});
