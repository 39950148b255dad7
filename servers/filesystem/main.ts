#!/usr/bin/env node
import { runServerMain } from '../common/entry.js';
import { createSearchGate } from './lib/search-gate.js';
import { createMtimeReader } from './lib/mtime-reader.js';
import { createLauncher } from './lib/spawn-relay.js';
import { createFilesystemServer } from './server.js';

// One of each per process: over HTTP a server is built per session, and 32 sessions with a gate each ran
// up to 32 searches at once on 2 cores; a relay for search processes, or glob's mtime worker thread
// (~10 MB), is worth starting once, not per session.
const searches = createSearchGate();
const launcher = createLauncher();
const mtimes = createMtimeReader();

void runServerMain({
  name: 'gemini-mcp-filesystem',
  // Every call stands alone: reads, and writes that the client approves before calling.
  stateless: true,
  summary:
    'an MCP server for files in the workspace: list_directory, read_file, write_file, replace, search_file_content, glob, read_many_files.',
  create: (flags, _values, log) =>
    createFilesystemServer({
      roots: flags.roots,
      projectTempDir: flags.projectTempDir,
      log,
      cleanStaleTemps: true,
      searches,
      launcher,
      mtimes,
    }),
});
