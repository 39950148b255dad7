import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWithin } from './path-guard.js';

/** What became of the client's roots: the ones dropped or cut down to the operator's bound, for the log. */
export interface ClientRootsOutcome {
  /** Roots outside every operator root (or not `file:` directories): ignored. */
  ignored: string[];
  /** Roots wider than the operator's: only the operator roots inside them are kept. */
  narrowed: string[];
}

/**
 * The workspace roots of one server session. The operator's roots (`--root`, else the start directory)
 * are a ceiling: client roots may only narrow them, never widen them, since whoever speaks the protocol
 * is not necessarily whoever chose the bound. Order is kept and the first root is primary. Each root is
 * stored as its realpath.
 */
export class WorkspaceRoots {
  private current: string[];
  private readonly ceiling: string[];
  readonly projectTempDir: string | undefined;

  constructor(argRoots: string[], projectTempDir?: string) {
    this.ceiling = WorkspaceRoots.normalise(argRoots);
    this.current = this.ceiling;
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

  /** The operator's roots, which client roots can never exceed. */
  get bound(): readonly string[] {
    return this.ceiling;
  }

  /**
   * Applies the client's `roots/list` answer, intersected with the operator's roots: a client root inside
   * one is kept, one holding operator roots yields just those, one outside all of them is ignored. When
   * nothing is left the operator's roots apply, as when the client offers none.
   */
  setFromClient(uris: string[]): ClientRootsOutcome {
    const outcome: ClientRootsOutcome = { ignored: [], narrowed: [] };
    const kept: string[] = [];
    const keep = (dir: string) => {
      if (!kept.includes(dir)) kept.push(dir);
    };
    for (const uri of uris) {
      const real = fileRootOf(uri);
      if (!real) {
        outcome.ignored.push(uri);
        continue;
      }
      if (this.ceiling.some((c) => isWithin(c, real))) {
        keep(real);
        continue;
      }
      const inside = this.ceiling.filter((c) => isWithin(real, c));
      if (inside.length === 0) {
        outcome.ignored.push(uri);
        continue;
      }
      outcome.narrowed.push(uri);
      for (const c of inside) keep(c);
    }
    this.current = kept.length > 0 ? kept : this.ceiling;
    return outcome;
  }
}

/** The realpath of a `file:` URI naming an existing directory, else undefined. */
function fileRootOf(uri: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined;
  try {
    return WorkspaceRoots.normalise([fileURLToPath(uri)])[0];
  } catch {
    return undefined;
  }
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}
