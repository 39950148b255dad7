import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { ENTRY, REPO } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { startHttpServer, type HttpServerProcess } from '../servers/common/http-server.js';

/** HAProxy from the distribution's package (CI installs it with apt). */
export const HAPROXY = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'].find((p) => existsSync(p));

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export interface Replica {
  id: string;
  port: number;
  proc: HttpServerProcess;
}

/**
 * Replicas r1..rN of the filesystem server and the shipped deploy/haproxy.cfg in front of them, all on
 * 127.0.0.1. The replicas answer to the balancer's address (`--public-host`), which is not their own.
 */
export class TeamCluster {
  readonly replicas: Replica[] = [];
  readonly children: ChildProcess[] = [];
  lbPort = 0;
  private haproxy?: ChildProcess;
  private haproxyLog = '';

  /**
   * `replicaArgs` are the flags every replica gets besides its root, id and port, given the balancer's port
   * (its public address); by default the balancer's address as a public host name.
   */
  constructor(
    private readonly root: string,
    private readonly socket: string,
    private readonly replicaArgs: (lbPort: number) => string[] = (p) => ['--public-host', `127.0.0.1:${p}`],
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.lbPort}/mcp`;
  }

  async start(count: number): Promise<void> {
    this.lbPort = await freePort();
    for (let i = 1; i <= count; i++) this.replicas.push(await this.startReplica(`r${i}`, 0));
    await this.startBalancer();
  }

  /** Stops HAProxy (its stick table goes with it) and starts it again on the same port. */
  async restartBalancer(): Promise<void> {
    const old = this.haproxy!;
    const gone = new Promise((r) => old.once('exit', r));
    old.kill('SIGKILL');
    await gone;
    await this.startBalancer();
  }

  private async startBalancer(): Promise<void> {
    const count = this.replicas.length;
    const env = { ...process.env, MCP_LB_BIND: `127.0.0.1:${this.lbPort}`, MCP_LB_SOCKET: this.socket };
    for (const r of this.replicas) (env as Record<string, string>)[`MCP_${r.id.toUpperCase()}`] = `127.0.0.1:${r.port}`;
    const lb = spawn(HAPROXY!, ['-db', '-f', join(REPO, 'deploy/haproxy.cfg')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.haproxy = lb;
    this.children.push(lb);
    lb.stdout!.on('data', (d: Buffer) => (this.haproxyLog += d.toString()));
    lb.stderr!.on('data', (d: Buffer) => (this.haproxyLog += d.toString()));
    await waitFor(async () => (await this.upServers()).length === count, 'HAProxy to see every replica up');
  }

  async startReplica(id: string, port: number): Promise<Replica> {
    const args = ['--root', this.root, '--replica-id', id, ...this.replicaArgs(this.lbPort)];
    args.push('--shutdown-grace', '20', '--port', String(port));
    const proc = await startHttpServer(ENTRY.filesystem, args, this.children);
    return { id, port: proc.port, proc };
  }

  replica(id: string): Replica {
    const r = this.replicas.find((x) => x.id === id);
    if (!r) throw new Error(`no replica ${id}`);
    return r;
  }

  /** SIGTERM (drain), wait for the exit, start it again on its port with its id, wait until HAProxy sends to it. */
  async rollingRestart(id: string): Promise<void> {
    const old = this.replica(id);
    old.proc.child.kill('SIGTERM');
    const code = await old.proc.exited;
    if (code !== 0) throw new Error(`${id} exited ${code} on SIGTERM: ${old.proc.stderr()}`);
    const fresh = await this.startReplica(id, old.port);
    this.replicas[this.replicas.indexOf(old)] = fresh;
    await waitFor(async () => (await this.upServers()).includes(id), `HAProxy to see ${id} up again`);
  }

  /** Server names HAProxy's health checks have marked UP (the runtime API's `show stat`). */
  async upServers(): Promise<string[]> {
    const status = await this.serverStat('status');
    return Object.keys(status).filter((id) => status[id] === 'UP');
  }

  /** One column of the runtime API's `show stat` for each server of the backend, by server name. */
  async serverStat(column: string): Promise<Record<string, string>> {
    const csv = await this.runtime('show stat');
    const header = csv.split('\n')[0].replace(/^# /, '').split(',');
    const [svname, wanted] = [header.indexOf('svname'), header.indexOf(column)];
    const rows = csv
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      // The frontend is named mcp too: its row and the backend's totals are not servers.
      .filter((f) => f[0] === 'mcp' && f[svname] !== undefined && !['FRONTEND', 'BACKEND'].includes(f[svname]));
    return Object.fromEntries(rows.map((f) => [f[svname], f[wanted]]));
  }

  private runtime(command: string): Promise<string> {
    return new Promise((resolve) => {
      let out = '';
      const c = createConnection(this.socket, () => c.end(`${command}\n`));
      c.on('data', (d: Buffer) => (out += d.toString()));
      c.on('close', () => resolve(out));
      c.on('error', () => resolve(''));
    });
  }

  /** A replica's Prometheus metric (summed over labels matching `labels`). */
  async metric(id: string, name: string, labels = ''): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${this.replica(id).port}/metrics`)).text();
    let sum = 0;
    for (const line of text.split('\n')) {
      if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
      if (labels && !line.includes(labels)) continue;
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return sum;
  }

  log(): string {
    return this.haproxyLog;
  }

  stop(): void {
    for (const c of this.children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
}
