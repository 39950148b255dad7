'use strict';
// Our processes are short: a headless run lasts well under a second, a tool server answers a few calls.
// V8 optimizes a function with TurboFan once it has run a while; in such a process that is a background
// compile whose code is seldom used long enough to pay back, and it touches TurboFan's own ~4 MB of
// machine code in the node binary (resident memory that stays). A 3-turn session (glob, grep, answer)
// optimized a single function, Node's internal path normalization in the filesystem server.
//
// So a function must run four times as long before it is optimized: a hot loop in a long search still
// is, a few milliseconds later. The flag exists in V8 11 (Node 20); later V8s tier up differently
// (Maglev, invocation counts) and are left at their defaults.
//
// Measured (Node 20.20, 2 shared cores, 3-turn session, medians of 7 interleaved runs): peak RSS of the
// process tree 122 → 118 MiB; wall and CPU unchanged.

/** Must run before the bundle is compiled, so the code cache is made and used under the same flags. */
function optimizeLater() {
  if (!process.versions.v8.startsWith('11.')) return;
  require('node:v8').setFlagsFromString('--ticks-before-optimization=12');
}

module.exports = { optimizeLater };
