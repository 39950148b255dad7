// Peak RSS of a process tree while it runs: `ps` sampled every 20 ms, summed over the root and every
// process below it (servers, hooks, shells).
import { execFile } from 'node:child_process';

/** RSS (KiB) of `root` and every process below it, from `ps -o pid=,ppid=,rss=` output. */
export function treeRssKib(psOut, root) {
  const rows = psOut
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  let sum = 0;
  const walk = (pid) => {
    for (const [p, pp, rss] of rows) {
      if (p === pid) sum += rss;
      if (pp === pid) walk(p);
    }
  };
  walk(root);
  return sum;
}

/** Starts sampling `pid`'s tree; `stop()` ends it and returns the peak in KiB. */
export function samplePeakRss(pid) {
  let peak = 0;
  let sampling = true;
  const sample = () =>
    execFile('ps', ['-e', '-o', 'pid=,ppid=,rss='], (e, stdout) => {
      if (!e) peak = Math.max(peak, treeRssKib(stdout, pid));
      if (sampling) setTimeout(sample, 20);
    });
  sample();
  return {
    stop: () => {
      sampling = false;
      return peak;
    },
  };
}
