import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ListenerCloseTimes {
  /** Stop accepting only after no connection or request has come for this long. */
  quietMs: number;
  /** A connection with no request for this long after the listener closed is idle, and is dropped. */
  settleMs: number;
  /** The whole close takes no longer than this; then every connection left is dropped. */
  maxMs: number;
}

/**
 * Closes an HTTP listener without cutting a request already on its way. Closing a listening socket
 * resets the connections the kernel completed but Node has not accepted yet, and Node's
 * `server.close()` drops every kept-alive connection between two requests, where the client may be
 * sending its next one. Either reaches the client as a request cut after it was sent: one that may
 * have run, so no client or load balancer may send it again (HAProxy answers it 502). A draining
 * server has already told its clients to go elsewhere (readiness 503, "session gone" 404), so this
 * waits for their traffic to stop, then stops accepting, lets each open connection finish its
 * request, and drops a connection only once it has been without one for a while.
 */
export class ListenerClose {
  private lastActivity = Date.now();
  private readonly sockets = new Map<Socket, { busy: number; since: number }>();

  constructor(private readonly http: Server) {
    http.on('connection', (socket: Socket) => {
      this.touch();
      this.sockets.set(socket, { busy: 0, since: Date.now() });
      socket.once('close', () => this.sockets.delete(socket));
    });
    http.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.touch();
      const state = this.sockets.get(req.socket);
      if (!state) return;
      state.busy++;
      res.once('close', () => {
        state.busy--;
        state.since = Date.now();
      });
    });
  }

  async close(times: ListenerCloseTimes): Promise<void> {
    const deadline = Date.now() + times.maxMs;
    await this.waitUntil(deadline, () => times.quietMs - (Date.now() - this.lastActivity));
    // net.Server's own close stops accepting without http.Server's sweep of idle kept-alive connections.
    const closed = new Promise<void>((r) => NetServer.prototype.close.call(this.http, () => r()));
    await this.waitUntil(deadline, () => this.untilSettled(times.settleMs));
    this.http.closeAllConnections();
    await closed;
  }

  private touch(): void {
    this.lastActivity = Date.now();
  }

  /** Milliseconds until every open connection has been without a request for `settleMs` (≤ 0: now). */
  private untilSettled(settleMs: number): number {
    let wait = 0;
    for (const state of this.sockets.values()) {
      const left = state.busy > 0 ? settleMs : settleMs - (Date.now() - state.since);
      wait = Math.max(wait, left);
    }
    return wait;
  }

  /** Sleeps while `remaining()` is positive, and never past `deadline`. */
  private async waitUntil(deadline: number, remaining: () => number): Promise<void> {
    for (let left = remaining(); left > 0 && Date.now() < deadline; left = remaining())
      await sleep(Math.min(left, deadline - Date.now(), 50));
  }
}
