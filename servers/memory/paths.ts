import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { relativeWithin } from '../../protocol/path-within.js';

export interface MemoryPaths {
  /** The home directory (`GEMINI_CLI_HOME` when set). */
  home: string;
  /** `<home>/.gemini`. */
  globalDir: string;
  /** Where `save_memory` writes. */
  memoryFile: string;
}

export function resolveMemoryPaths(opts: {
  memoryFile?: string;
  fileNames: string[];
  env: NodeJS.ProcessEnv;
}): MemoryPaths {
  const home = resolve(opts.env.GEMINI_CLI_HOME || homedir());
  const globalDir = join(home, '.gemini');
  const memoryFile = opts.memoryFile ? resolve(opts.memoryFile) : join(globalDir, opts.fileNames[0] ?? 'GEMINI.md');
  return { home, globalDir, memoryFile };
}

/** `~/...` for paths under the home directory, as the confirmation title shows them. */
export function tildify(path: string, home: string): string {
  const rel = relativeWithin(home, path);
  if (rel === '') return '~';
  if (rel === undefined) return path;
  return `~/${rel.split(sep).join('/')}`;
}
