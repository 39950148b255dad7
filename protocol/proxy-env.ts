import { lazyRequire } from './lazy-require.js';

/** The variables that name a proxy, lower case first as curl and undici read them. */
const PROXY_VARS = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/** Whether the environment names a proxy (NO_PROXY alone changes nothing). */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARS.some((name) => !!env[name]?.trim());
}

/** A proxy variable that is not a URL: the message says which one and what it holds. */
export class ProxySettingError extends Error {}

let installed = false;

/**
 * Sends every `fetch` of this process (Node's own, which the Gemini SDK, the MCP SDK's HTTP transports and
 * OAuth use) and every undici request through HTTPS_PROXY / HTTP_PROXY, except the hosts NO_PROXY names.
 * undici's EnvHttpProxyAgent makes that one decision for all of them; it is set as the global dispatcher,
 * which Node's bundled fetch reads from the same global slot. undici is loaded only when a proxy is named:
 * a run without one never pays for it. Returns whether a proxy is in use.
 */
export function useProxyFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  if (!proxyConfigured(env)) return false;
  if (installed) return true;
  for (const name of PROXY_VARS) {
    const value = env[name]?.trim();
    if (value && !URL.canParse(value))
      throw new ProxySettingError(`${name} is not a URL (${JSON.stringify(value)}): write it as http://host:port`);
  }
  const undici = lazyRequire('undici') as typeof import('undici');
  undici.setGlobalDispatcher(withoutExperimentalWarning(() => new undici.EnvHttpProxyAgent()));
  installed = true;
  return true;
}

/**
 * undici prints "EnvHttpProxyAgent is experimental" to stderr on first use; on a chat screen or in a
 * stdio server's log that line is noise the user can do nothing about. Only that warning is dropped.
 */
function withoutExperimentalWarning<T>(make: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const opts = rest[0] as { code?: string } | undefined;
    if (typeof opts === 'object' && opts?.code === 'UNDICI-EHPA') return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emit;
  }
}
