#!/usr/bin/env node
import { runServerMain } from '../common/entry.js';
import { createMemoryServer } from './server.js';

void runServerMain({
  name: 'gemini-mcp-memory',
  // Every call stands alone: save_memory appends under a file lock.
  stateless: true,
  summary: 'an MCP server for GEMINI.md / AGENTS.md context: save_memory, and the context files as resources.',
  options: {
    'memory-file': { type: 'string' },
    'context-file-name': { type: 'string', multiple: true },
  },
  usage: '       [--memory-file PATH] [--context-file-name NAME]...',
  create: (flags, values, log) =>
    createMemoryServer({
      roots: flags.roots,
      projectTempDir: flags.projectTempDir,
      log,
      memoryFile: values['memory-file'] as string | undefined,
      contextFileNames: values['context-file-name'] as string[] | undefined,
    }),
});
