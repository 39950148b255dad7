// Peak RSS of a process tree while it runs, sampled every 20 ms and summed over the root and every
// process below it (servers, hooks, shells). On Linux the sample reads /proc directly: spawning `ps`
// 50 times a second cost the measured runs a good part of one of two cores (a 3-turn session measured
// ~25% slower under it). Elsewhere it falls back to `ps`.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const PAGE_KIB = 4;

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

/** The same sum read from /proc: each task's `children` list, each process's resident pages (statm). */
export function procTreeRssKib(root) {
  let sum = 0;
  const walk = (pid) => {
    try {
      sum += Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * PAGE_KIB;
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        const kids = readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').trim();
        if (kids) for (const k of kids.split(' ')) walk(Number(k));
      }
    } catch {
      // the process ended between listing and reading
    }
  };
  walk(root);
  return sum;
}

/** Starts sampling `pid`'s tree; `stop()` ends it and returns the peak in KiB. */
export function samplePeakRss(pid) {
  let peak = 0;
  let sampling = true;
  if (existsSync(`/proc/${pid}/task/${pid}/children`)) {
    const timer = setInterval(() => {
      peak = Math.max(peak, procTreeRssKib(pid));
    }, 20);
    peak = procTreeRssKib(pid);
    return {
      stop: () => {
        clearInterval(timer);
        return peak;
      },
    };
  }
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
