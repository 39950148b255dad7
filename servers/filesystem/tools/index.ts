import type { ToolDefinition } from '../../common/tool.js';

export const filesystemTools: ToolDefinition[] = [];
