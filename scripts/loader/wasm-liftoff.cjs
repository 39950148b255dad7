'use strict';
// WebAssembly in our processes is small and short-lived: undici's HTTP parser behind fetch and
// tree-sitter's bash grammar. By default V8 also compiles it with TurboFan on a background thread, CPU
// that process exit then waits for; Liftoff's code alone is plenty for parsing model responses and shell
// commands.
//
// Measured gain (Node 20.20, 2 shared cores, median of 15 runs of the shell server: initialize, one
// run_shell_command, end of stdin): answered 357 → 311 ms, exited 382 → 316 ms. A one-turn headless
// session ended ~150 ms after its answer before this.
/**
 * Must run before the bundle is compiled, so the code cache is made and used under the same flags. The
 * v8 module (~5 ms to load) is required here, not at the top: bins without WebAssembly never load it.
 */
function useLiftoffOnly() {
  require('node:v8').setFlagsFromString('--liftoff-only');
}

module.exports = { useLiftoffOnly };
