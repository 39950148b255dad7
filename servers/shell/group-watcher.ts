import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Ends this server's process groups should the server die without ending them (SIGKILL, a crash): one
 * tiny `sh` outside every group reads lines on a pipe whose only writer is this process, `+PGID` when a
 * group starts and `-PGID` when it is done. When the server dies the kernel closes the pipe, `read` sees
 * end-of-file and the watcher signals the groups still listed (SIGTERM, then SIGKILL after a second);
 * with none listed it exits quietly. Pipes are created close-on-exec, so no command inherits the writing
 * end and keeps the watcher waiting. One watcher serves every group: a watcher spawned per command had
 * cost a second spawn per call.
 */
const WATCHER = `set -f; g=' '
while read -r l; do
  case $l in
    +*) g="$g\${l#+} " ;;
    -*) p=\${l#-}; case $g in *" $p "*) g="\${g%% $p *} \${g#* $p }" ;; esac ;;
  esac
done
[ "$g" = ' ' ] && exit 0
for p in $g; do kill -s TERM -- "-$p" 2>/dev/null; done
sleep 1
for p in $g; do kill -s KILL -- "-$p" 2>/dev/null; done
exit 0`;

/**
 * How long a released group may stay on the watcher's list: its line waits for the next group's, so the
 * watcher wakes once per command instead of twice (it reads its pipe a byte at a time, on the cores the
 * next command starts on). A released group is gone, so a watcher that signals it meanwhile finds nothing.
 */
const RELEASE_BATCH_MS = 50;

export class GroupWatcher {
  private proc: ChildProcess | undefined;
  private readonly listed = new Set<number>();
  private released = '';
  private flushTimer: NodeJS.Timeout | undefined;

  watch(pgid: number): void {
    if (this.listed.has(pgid)) return;
    this.listed.add(pgid);
    this.send(`+${pgid}\n`);
  }

  release(pgid: number): void {
    if (!this.listed.delete(pgid)) return;
    this.released += `-${pgid}\n`;
    this.flushTimer ??= setTimeout(() => this.send(''), RELEASE_BATCH_MS).unref();
  }

  /** No more groups will come (the server is going away): the watcher exits, ending what is still listed. */
  close(): void {
    this.send('');
    this.proc?.stdin?.end();
    this.proc = undefined;
  }

  /**
   * Writes the releases waiting and then `line`; a watcher that is gone (a command killed it) is replaced,
   * told every listed group.
   */
  private send(line: string): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    let text = this.released + line;
    this.released = '';
    if (!text) return;
    if (!this.proc?.stdin?.writable) {
      if (this.listed.size === 0) return;
      this.proc = start(() => (this.proc = undefined));
      if (!this.proc) return;
      text = [...this.listed].map((g) => `+${g}\n`).join('');
    }
    this.proc.stdin?.write(text);
  }
}

function start(onExit: () => void): ChildProcess | undefined {
  try {
    const w = spawn('/bin/sh', ['-c', WATCHER, 'gemini-mcp-shell-watch'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    w.on('error', () => undefined);
    w.on('exit', onExit);
    w.stdin?.on('error', () => undefined);
    // Neither the watcher nor its pipe keeps this process alive.
    w.unref();
    (w.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return w;
  } catch {
    return undefined;
  }
}
