'use strict';
// A long session resends its whole history with every model request, so each turn leaves garbage about
// the size of the request (the SDK's JSON of it and its flattened copy: ~1 MB a turn at 60 turns of two
// 4 KB reads). What stays live grows far slower (~30 KB a turn: the history itself). V8 lets the old
// generation grow to a multiple of what survived the last full collection before collecting again, a
// factor it picks up to 4 for a small heap; resident memory follows that ceiling, and V8 keeps the pages
// once it has them. The factor is fixed at 1.5: a full collection comes sooner (one of a ~20 MB heap costs
// a few milliseconds), and the resident set stays near one and a half times what is live.
//
// Measured (Node 20.20, 2 shared cores, host process): the long-session bench's 99-turn headless run
// peaked at 101-103 MiB with V8's factor and 80-81 MiB at 2 (CPU 720-780 -> 780-820 ms). Its editor
// session of 200 turns, 3 runs each: tree growth over a 20-turn session 28-30 MiB at 2, 22.5-24.6 MiB at
// 1.5, 21-24 MiB at 1.25; host CPU for the 200 turns 2,050-2,140, 2,190-2,370 and 2,140-2,480 ms. A
// 20-turn session peaks the same at every factor (no full collection happens that early).
//
// The flag exists in the V8s of Node 20 and 22 (11.x, 12.x); others are left at their defaults.

/** Must run before the bundle is compiled, so the code cache is made and used under the same flags. */
function capOldGenerationGrowth() {
  if (!/^1[12]\./.test(process.versions.v8)) return;
  require('node:v8').setFlagsFromString('--heap-growing-percent=50');
}

module.exports = { capOldGenerationGrowth };
