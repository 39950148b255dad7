import type { ServerResponse } from 'node:http';

/**
 * The requests a drain waits for, and the moment after which no new one is taken. A call is counted
 * by the call meter only once the transport has parsed it, so a request still being read when the
 * last call finished would otherwise be cut by the sessions closing under it: a write that may or may
 * not have run, which no client can safely retry. Every POST is therefore open here until its
 * response closes, the drain waits for all of them, and then the gate shuts at once: a later request
 * is turned away before anything runs (404 for a session, which a client answers by starting a new
 * session elsewhere and sending the request again).
 */
export class DrainGate {
  private readonly open = new Set<ServerResponse>();
  private shutAt = false;

  get shut(): boolean {
    return this.shutAt;
  }

  /** Counts a POST as open until its response closes. */
  enter(res: ServerResponse): void {
    this.open.add(res);
    res.once('close', () => this.open.delete(res));
  }

  /** Waits until no POST is open (or the deadline, a `Date.now()` time, passed), then shuts. */
  async close(deadline: number): Promise<void> {
    while (this.open.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<void>((r) => {
        timer = setTimeout(r, deadline - Date.now());
      });
      const ended = [...this.open].map((res) => new Promise<void>((r) => res.once('close', () => r())));
      await Promise.race([Promise.all(ended), expired]);
      clearTimeout(timer);
    }
    this.shutAt = true;
  }
}
