'use strict';
// V8 starts the young generation at 1 MB per semi-space and doubles it each time most of it survives a
// scavenge, as most of a process start's allocations do, up to 16 MB. Our processes are short-lived, and
// a page the process touches for the first time costs a page fault: ~15 µs each on the 2-core VM we
// measure on, where the host took ~5,000 more of them than a bare `node -e 0` before its first request.
// The young generation is kept at its first size: more, smaller scavenges, fewer fresh pages.
// A server on the HTTP transport, long-lived and allocating per request, restores the growth once it
// listens (servers/common/young-generation.ts).
//
// Measured (Node 20.20, 2 shared cores, 3-turn session, medians of 11 interleaved runs, twice): exit
// 621 → 585 and 624 → 596 ms, tree CPU 647 → 621 and 646 → 627 ms, peak tree RSS 118 → 112 MiB; a
// 99-turn session peaked at 163 MiB instead of 189. A 50,000-file glob, a search of the same tree and a
// 10,000-record resume took as long as before.
//
// The flag exists in the V8s of Node 20 and 22 (11.x, 12.x); others are left at their defaults rather
// than risk an "unrecognized flag" line on the user's terminal.

/** Must run before the bundle is compiled, so the code cache is made and used under the same flags. */
function keepYoungGenerationSmall() {
  if (!/^1[12]\./.test(process.versions.v8)) return;
  require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}

module.exports = { keepYoungGenerationSmall };
