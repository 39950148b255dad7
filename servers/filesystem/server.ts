import { createKitServer, type KitServer } from '../common/create-server.js';
import type { Logger } from '../common/logger.js';
import { VERSION } from '../../protocol/version.js';
import { filesystemTools } from './tools/index.js';

export interface FilesystemServerDeps {
  roots: string[];
  projectTempDir?: string;
  log: Logger;
}

export function createFilesystemServer(deps: FilesystemServerDeps): KitServer {
  return createKitServer({
    name: 'gemini-mcp-filesystem',
    version: VERSION,
    instructions: 'File tools confined to the workspace roots. Paths may be absolute or relative to the first root.',
    tools: filesystemTools,
    log: deps.log,
    roots: deps.roots,
    projectTempDir: deps.projectTempDir,
  });
}
