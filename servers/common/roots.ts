import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The workspace roots of one server session. Client roots replace the command-line
 * roots; order is kept and the first root is primary. Each root is stored as its realpath.
 */
export class WorkspaceRoots {
  private current: string[];
  private readonly fallback: string[];
  readonly projectTempDir: string | undefined;

  constructor(argRoots: string[], projectTempDir?: string) {
    this.fallback = WorkspaceRoots.normalise(argRoots);
    this.current = this.fallback;
    this.projectTempDir = projectTempDir ? realOrResolved(projectTempDir) : undefined;
  }

  static normalise(dirs: string[]): string[] {
    const out: string[] = [];
    for (const dir of dirs) {
      try {
        if (!statSync(dir).isDirectory()) continue;
        const real = realpathSync(dir);
        if (!out.includes(real)) out.push(real);
      } catch {
        // A root that does not exist is dropped: it can hold nothing.
      }
    }
    return out;
  }

  get list(): readonly string[] {
    return this.current;
  }

  get primary(): string | undefined {
    return this.current[0];
  }

  /** Applies the client's `roots/list` answer; an empty list falls back to the argument roots. */
  setFromClient(uris: string[]): void {
    const dirs = uris.filter((u) => u.startsWith('file://')).map((u) => fileURLToPath(u));
    const roots = WorkspaceRoots.normalise(dirs);
    this.current = roots.length > 0 ? roots : this.fallback;
  }
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}
