/**
 * The lines of files the in-process search engine read through a descriptor whose real location it
 * checked, kept so that verification (grep-verify.ts) need not open and read them a second time.
 *
 * Verification exists because engines read by name, and a name can be swapped to lead elsewhere while a
 * search runs. The JS engine can make the same check verification makes, on the descriptor it reads:
 * opened without following a final symlink, its /proc path must be the very path the name should denote,
 * inside the roots. Lines read that way are what verification would have read. Only files with a match
 * are kept, up to a bound on their total size; the rest go through verification as before.
 */
export class CheckedReads {
  private readonly lines = new Map<string, string[]>();
  private bytes = 0;

  constructor(
    /** Accepts a descriptor's real path (the roots' rule). */
    readonly allowed: (real: string) => boolean,
    // Per search: a server answering many clients may run a search for each at once.
    private readonly maxBytes = 4 * 1024 * 1024,
  ) {}

  /** Keeps the lines of `full` (read as `size` bytes), unless that would pass the bound. */
  keep(full: string, lines: string[], size: number): void {
    if (this.bytes + size > this.maxBytes) return;
    this.bytes += size;
    this.lines.set(full, lines);
  }

  /** The lines of `full`, when it was read through a checked descriptor and kept. */
  get(full: string): string[] | undefined {
    return this.lines.get(full);
  }
}
