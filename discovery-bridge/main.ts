#!/usr/bin/env node
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { runServerMain } from '../servers/common/entry.js';
import type { CommonFlags, FlagValues } from '../servers/common/flags.js';
import type { Logger } from '../servers/common/logger.js';
import { DiscoveryCatalog } from './catalog.js';
import { SERVER_NAME, createDiscoveryBridgeServer, type DiscoveryBridgeDeps } from './server.js';
import { splitCommand } from './shell-words.js';

const DEFAULT_TIMEOUT_S = 300;
const DEFAULT_DISCOVERY_TIMEOUT_S = 20;

const USAGE = `       --discovery-command "CMD ARGS" [--call-command CMD] [--refresh-s N] [--timeout-s N]
       [--discovery-timeout-s N]
  --discovery-command  run (shell-quote split, no shell) in the first --root to list the tools
  --call-command       run as CMD <tool name> with the arguments as JSON on stdin
  --refresh-s N        re-run discovery every N seconds (default: off; SIGHUP always re-runs it)
  --timeout-s N        per call, kills the call's process group (default ${DEFAULT_TIMEOUT_S}; 0 = none)
  --discovery-timeout-s N  bound of one discovery run (default ${DEFAULT_DISCOVERY_TIMEOUT_S}; 0 = none)`;

function configError(message: string): never {
  process.stderr.write(`${SERVER_NAME}: ${message}\n`);
  process.exit(2);
}

function seconds(values: FlagValues, flag: string, fallback: number): number {
  const raw = values[flag];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(n) || n < 0) {
    configError(`--${flag} must be a number of seconds >= 0, not "${raw}"`);
  }
  return n;
}

/**
 * Upstream spawns the call command as one executable path; this bridge also accepts "PROGRAM ARGS".
 * A value naming an existing file is taken whole, so upstream settings with spaces in the path work.
 */
function callCommandOf(text: string, cwd: string): string[] {
  try {
    if (statSync(resolve(cwd, text)).isFile()) return [text];
  } catch {
    // not a file path as a whole: split it
  }
  return splitCommand(text);
}

async function setUp(flags: CommonFlags, values: FlagValues, log: Logger): Promise<DiscoveryBridgeDeps> {
  const discoveryText = values['discovery-command'];
  if (typeof discoveryText !== 'string' || !discoveryText.trim()) configError('--discovery-command is required');
  const callText = typeof values['call-command'] === 'string' ? values['call-command'] : undefined;
  const cwd = resolve(flags.roots[0]);
  let command: string[];
  let callCommand: string[] | undefined;
  try {
    command = splitCommand(discoveryText);
  } catch (err) {
    configError(`--discovery-command: ${(err as Error).message}`);
  }
  try {
    callCommand = callText ? callCommandOf(callText, cwd) : undefined;
  } catch (err) {
    configError(`--call-command: ${(err as Error).message}`);
  }
  const refreshS = seconds(values, 'refresh-s', 0);
  const timeoutS = seconds(values, 'timeout-s', DEFAULT_TIMEOUT_S);
  const discoveryTimeoutS = seconds(values, 'discovery-timeout-s', DEFAULT_DISCOVERY_TIMEOUT_S);

  const catalog = new DiscoveryCatalog({ command, cwd, log, timeoutMs: discoveryTimeoutS * 1000 });
  await catalog.refresh();
  process.on('SIGHUP', () => {
    log.info('SIGHUP: re-running discovery');
    void catalog.refresh();
  });
  if (refreshS > 0) setInterval(() => void catalog.refresh(), refreshS * 1000).unref();
  return {
    catalog,
    discoveryCommandText: discoveryText,
    callCommand,
    callCommandText: callText,
    cwd,
    timeoutMs: timeoutS * 1000,
    log,
  };
}

/** One catalog per process: over HTTP, `create` runs per session and every session shares it. */
function bridgeEntry(): Parameters<typeof runServerMain>[0] {
  let shared: Promise<DiscoveryBridgeDeps> | undefined;
  return {
    name: SERVER_NAME,
    summary:
      "an MCP server for the tools a discovery command lists, each call run through the call command (Gemini CLI's tools.discoveryCommand / tools.callCommand).",
    options: {
      'discovery-command': { type: 'string' },
      'call-command': { type: 'string' },
      'refresh-s': { type: 'string' },
      'timeout-s': { type: 'string' },
      'discovery-timeout-s': { type: 'string' },
    },
    usage: USAGE,
    create: async (flags, values, log) => {
      shared ??= setUp(flags, values, log);
      return createDiscoveryBridgeServer(await shared);
    },
  };
}

void runServerMain(bridgeEntry());
