'use strict';
// A long session resends its whole history with every model request, so each turn leaves garbage about
// the size of the request (the SDK's JSON of it and its flattened copy: ~1 MB a turn at 60 turns of two
// 4 KB reads). What stays live grows far slower (~30 KB a turn: the history itself). V8 lets the old
// generation grow to a multiple of what survived the last full collection before collecting again, a
// factor it picks up to 4 for a small heap; resident memory follows that ceiling, and V8 keeps the pages
// once it has them. The factor is fixed at 2: a full collection comes sooner (one of a ~20 MB heap costs
// a few milliseconds), and the resident set stays near twice what is live.
//
// Measured (Node 20.20, 2 shared cores, the long-session bench's 99-turn run, host process, 2 runs each):
// peak RSS 101-103 -> 80-81 MiB, CPU 720-780 -> 780-820 ms; a 20-turn run peaks at 66.5 MiB either way
// (no full collection happens that early). Factors 1.25 and 1.5 gave the same peak for more CPU.
//
// The flag exists in the V8s of Node 20 and 22 (11.x, 12.x); others are left at their defaults.

/** Must run before the bundle is compiled, so the code cache is made and used under the same flags. */
function capOldGenerationGrowth() {
  if (!/^1[12]\./.test(process.versions.v8)) return;
  require('node:v8').setFlagsFromString('--heap-growing-percent=100');
}

module.exports = { capOldGenerationGrowth };
