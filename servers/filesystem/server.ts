import { createSearchGate, type SharedSearchGate } from './lib/search-gate.js';
import type { Launcher } from './lib/spawn-relay.js';
import { createKitServer, type KitServer } from '../common/create-server.js';
import type { Logger } from '../common/logger.js';
import { VERSION } from '../../protocol/version.js';
import { createMtimeReader, type MtimeReader } from './lib/mtime-reader.js';
import { cleanStaleTemps } from './lib/temp-cleanup.js';
import { filesystemTools } from './tools/index.js';

const CLEANUP_DELAY_MS = 1000;

export interface FilesystemServerDeps {
  roots: string[];
  projectTempDir?: string;
  log: Logger;
  /** Remove temp files that killed writes left in the roots, once per root, in the background (from 1 s on). */
  cleanStaleTemps?: boolean;
  /**
   * The slots search processes wait for. The entry gives every server of the process (one per HTTP
   * session) the same gate, so that the searches of all clients share the cores; without it, a server
   * has its own. Each server waits in a lane of its own, and the lanes take turns.
   */
  searches?: SharedSearchGate;
  /** How search processes are started; the entry gives every server the process's (spawn-relay.ts). */
  launcher?: Launcher;
  /**
   * The mtime reader of `glob` (a worker thread once a glob is big); the entry gives every server the
   * process's. Without it, a server has its own and closes it with itself.
   */
  mtimes?: MtimeReader;
}

export function createFilesystemServer(deps: FilesystemServerDeps): KitServer {
  const cleaned = new Set<string>();
  let cleaning = false;
  const clean = (roots: readonly string[]) => {
    // Before the first cleanup is due, a change of roots is picked up by it.
    if (!cleaning) return;
    for (const root of roots) {
      if (cleaned.has(root)) continue;
      cleaned.add(root);
      void cleanStaleTemps(root, deps.log).catch((err) =>
        deps.log.warn(`temp cleanup of ${root}: ${(err as Error).message}`),
      );
    }
  };
  // Given: the process's, shared by every session's server. Else owned by this instance and closed with it.
  const mtimes = deps.mtimes ?? createMtimeReader();
  const kit = createKitServer({
    name: 'gemini-mcp-filesystem',
    version: VERSION,
    instructions: 'File tools confined to the workspace roots. Paths may be absolute or relative to the first root.',
    tools: filesystemTools({ mtimes, searches: (deps.searches ?? createSearchGate()).lane(), launcher: deps.launcher }),
    log: deps.log,
    roots: deps.roots,
    projectTempDir: deps.projectTempDir,
    onRootsChanged: () => deps.cleanStaleTemps && clean(kit.roots.list),
    onClose: () => (deps.mtimes ? undefined : mtimes.close()),
  });
  // Housekeeping, not urgent: it walks the whole tree (a directory descriptor per folder), which on a large
  // project competed with a session's first calls. It starts once the server has been up for a second,
  // without keeping the process alive: a one-shot headless run leaves it to the next longer session.
  if (deps.cleanStaleTemps) {
    setTimeout(() => {
      cleaning = true;
      clean(kit.roots.list);
    }, CLEANUP_DELAY_MS).unref();
  }
  return kit;
}
