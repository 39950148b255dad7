#!/usr/bin/env node
import { runServerMain } from '../common/entry.js';
import { SandboxUnavailableError } from '../../protocol/sandbox/preflight.js';
import { createShellSandbox, type SandboxFor } from './sandbox.js';
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

const list = (raw: unknown): string[] =>
  (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/** Fail closed: asked for a sandbox that cannot be built, the server does not start at all. */
function sandboxOrExit(values: Record<string, unknown>): SandboxFor | undefined {
  if (values.sandbox !== true && process.env.GEMINI_SANDBOX !== 'true' && process.env.GEMINI_SANDBOX !== '1')
    return undefined;
  try {
    return createShellSandbox({ allowNet: list(values['sandbox-allow-net']), secrets: list(values['sandbox-secret']) });
  } catch (err) {
    if (!(err instanceof SandboxUnavailableError)) throw err;
    process.stderr.write(`gemini-mcp-shell: ${err.message}\n`);
    process.exit(3);
  }
}

void runServerMain({
  name: 'gemini-mcp-shell',
  stateless: {
    refused:
      'the shell server keeps the background processes a command started (with &) in the session that ran it, and a later kill or the session end must reach the replica running them; serve it with sessions behind the sticky balancer',
  },
  summary:
    'an MCP server that runs shell commands in the workspace (run_shell_command), in a bubblewrap sandbox with --sandbox.',
  options: {
    'timeout-s': { type: 'string' },
    'truncate-threshold': { type: 'string' },
    'max-jobs': { type: 'string' },
    sandbox: { type: 'boolean' },
    'sandbox-allow-net': { type: 'string', multiple: true },
    'sandbox-secret': { type: 'string', multiple: true },
  },
  usage:
    '       [--timeout-s SECONDS]          inactivity timeout, default 300 (0 = none)\n' +
    '       [--truncate-threshold CHARS]   model-facing output limit, default 40000 (0 = none)\n' +
    '       [--max-jobs N]                 background jobs running at once, default 100\n' +
    '       [--sandbox]                    run every command in a bubblewrap sandbox (also GEMINI_SANDBOX=true)\n' +
    '       [--sandbox-allow-net HOST,...] hosts sandboxed commands may reach (default: no network)\n' +
    '       [--sandbox-secret PATH]...     more paths to hide from sandboxed commands',
  create: (flags, values, log) =>
    createShellServer({
      sandbox: sandboxOrExit(values),
      roots: flags.roots,
      projectTempDir: flags.projectTempDir,
      log,
      timeoutS: positive('timeout-s', values['timeout-s'], 300),
      truncateThreshold: positive('truncate-threshold', values['truncate-threshold'], 40_000),
      maxJobs: positive('max-jobs', values['max-jobs'], 100),
    }),
});
