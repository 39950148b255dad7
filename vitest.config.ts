import { defineConfig } from 'vitest/config';

/**
 * Two projects. `unit`: tests of pure modules (`*.unit.test.ts`) — no build, no child process, seconds in all
 * (`npm run test:unit`). `process`: the suites that run the built binaries, real servers, child processes and
 * the chat in tmux (they need `npm run build`; `npm test` builds first and runs both projects).
 */
/** Test folders with their own installs (acpx, the MCP conformance suite) carry packages' own test files. */
const NOT_OURS = ['**/node_modules/**', 'dist/**'];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    // Suites spawn real servers and processes; a 2-core machine needs headroom, and the forks pool
    // keeps each file's child processes isolated.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.unit.test.ts'], exclude: NOT_OURS } },
      {
        extends: true,
        test: { name: 'process', include: ['test/**/*.test.ts'], exclude: [...NOT_OURS, 'test/**/*.unit.test.ts'] },
      },
    ],
  },
});
