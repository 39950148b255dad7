import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Watches the directories of the context files rather than the files themselves: an atomic save
 * replaces the file's inode, which would silently end a watch placed on the file.
 */
export class ContextWatcher {
  private watchers = new Map<string, FSWatcher>();
  private names = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly onChange: () => void,
    private readonly debounceMs = 100,
  ) {}

  /** Replaces the watched set: `dirs` where context files may appear, `files` already loaded. */
  update(dirs: string[], files: string[], fileNames: string[]): void {
    this.names = new Set([...fileNames, ...files.map((f) => basename(f))]);
    const wanted = new Set([...dirs, ...files.map((f) => dirname(f))]);
    for (const [dir, w] of this.watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          if (name === null || this.names.has(String(name))) this.schedule();
        });
        w.on('error', () => {
          w.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, w);
      } catch {
        // A directory that vanished cannot hold context files; the next reload re-evaluates.
      }
    }
  }

  /** Re-checks the context as if a watched file had changed. */
  trigger(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onChange();
    }, this.debounceMs);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
