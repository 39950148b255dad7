/** What can be done to a command running in a pseudo-terminal from outside it. */
export interface PtyHandle {
  write(data: string): void;
  resize(cols: number, rows: number): void;
}

/**
 * The commands of this session running in a pseudo-terminal, by pid: `write_to_shell` finds its command
 * here, so a client can only type into a command it started itself, and only while it runs.
 */
export class PtySessions {
  private readonly byPid = new Map<number, PtyHandle>();

  add(pid: number, handle: PtyHandle): void {
    this.byPid.set(pid, handle);
  }

  delete(pid: number): void {
    this.byPid.delete(pid);
  }

  get(pid: number): PtyHandle | undefined {
    return this.byPid.get(pid);
  }
}
