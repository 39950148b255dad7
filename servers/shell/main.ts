#!/usr/bin/env node
import { runServerMain } from '../common/entry.js';
import { createShellServer } from './server.js';

const positive = (name: string, raw: unknown, fallback: number): number => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(`gemini-mcp-shell: --${name} must be a non-negative number, not "${raw}"\n`);
    process.exit(2);
  }
  return n;
};

void runServerMain({
  name: 'gemini-mcp-shell',
  options: {
    'timeout-s': { type: 'string' },
    'truncate-threshold': { type: 'string' },
  },
  usage:
    '       [--timeout-s SECONDS]          inactivity timeout, default 300 (0 = none)\n' +
    '       [--truncate-threshold CHARS]   model-facing output limit, default 40000 (0 = none)',
  create: (flags, values, log) =>
    createShellServer({
      roots: flags.roots,
      projectTempDir: flags.projectTempDir,
      log,
      timeoutS: positive('timeout-s', values['timeout-s'], 300),
      truncateThreshold: positive('truncate-threshold', values['truncate-threshold'], 40_000),
    }),
});
