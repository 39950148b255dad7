#!/usr/bin/env node
import { runServerMain } from '../common/entry.js';
import { createFilesystemServer } from './server.js';

void runServerMain({
  name: 'gemini-mcp-filesystem',
  create: (flags, _values, log) =>
    createFilesystemServer({ roots: flags.roots, projectTempDir: flags.projectTempDir, log, cleanStaleTemps: true }),
});
