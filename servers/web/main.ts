#!/usr/bin/env node
import { useProxyFromEnv } from '../../protocol/proxy-env.js';
import { runServerMain } from '../common/entry.js';
import { HostRateLimiter } from './host-policy.js';
import { DEFAULT_MODEL } from './model.js';
import { createWebServer, DEFAULT_FETCH_TIMEOUT_MS } from './server.js';

// Page fetches and the model's requests go through HTTPS_PROXY / HTTP_PROXY (NO_PROXY honoured).
try {
  useProxyFromEnv();
} catch (err) {
  process.stderr.write(`gemini-mcp-web: ${(err as Error).message}\n`);
  process.exit(2);
}

// One per process: over HTTP a server is built per session (per request with --stateless), and a limiter
// each would let every session, or every request, fetch from a host ten times a minute anew.
const rateLimiter = new HostRateLimiter();

void runServerMain({
  name: 'gemini-mcp-web',
  // Every call stands alone (a fetch or a search).
  stateless: true,
  summary: 'an MCP server for the web: web_fetch and google_web_search (through the Gemini API).',
  options: {
    model: { type: 'string' },
    'base-url': { type: 'string' },
    'allow-private-hosts': { type: 'boolean', default: false },
    'allow-host': { type: 'string', multiple: true },
    'fetch-timeout-ms': { type: 'string' },
  },
  usage:
    '       [--model NAME] [--base-url URL] [--allow-private-hosts] [--allow-host HOST[:PORT]]... [--fetch-timeout-ms N]\n' +
    '       env: GEMINI_API_KEY or GOOGLE_API_KEY, GOOGLE_GEMINI_BASE_URL, GEMINI_MODEL',
  create: (flags, values, log) => {
    const timeout = Number(values['fetch-timeout-ms'] ?? DEFAULT_FETCH_TIMEOUT_MS);
    return createWebServer({
      log,
      roots: flags.roots,
      projectTempDir: flags.projectTempDir,
      model: {
        apiKey: process.env.GEMINI_API_KEY || process.env.GOOGLE_API_KEY || undefined,
        baseUrl: (values['base-url'] as string | undefined) || process.env.GOOGLE_GEMINI_BASE_URL || undefined,
        model: (values.model as string | undefined) || process.env.GEMINI_MODEL || DEFAULT_MODEL,
      },
      allowPrivateHosts: values['allow-private-hosts'] === true,
      allowHosts: (values['allow-host'] as string[] | undefined) ?? [],
      fetchTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_FETCH_TIMEOUT_MS,
      rateLimiter,
    });
  },
});
