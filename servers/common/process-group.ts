/**
 * Signals a whole process group: a child spawned `detached` leads its own group, so `-pgid` reaches
 * everything it started, background helpers included.
 */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
