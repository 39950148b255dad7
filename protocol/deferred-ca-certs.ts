/**
 * `NODE_EXTRA_CA_CERTS` makes Node read and parse the named file at every process start, before any code
 * runs: 29 ms of a bare `node -e 0`'s 48 for Debian's bundle on 2 shared cores. The shell server and the
 * discovery bridge never open a TLS connection themselves, but the commands they run must see the
 * variable as the user set it. So the host hands it to them under DEFERRED_CA_CERTS, and each puts it
 * back into its own environment first thing: Node has started by then and does not read it again, and
 * every command started later inherits it.
 */
export const DEFERRED_CA_CERTS = 'GEMINI_MCP_NODE_EXTRA_CA_CERTS';

/** Host side: `env` with NODE_EXTRA_CA_CERTS moved to DEFERRED_CA_CERTS (a new object). */
export function deferCaCerts(env: Record<string, string>): Record<string, string> {
  const { NODE_EXTRA_CA_CERTS: certs, ...rest } = env;
  return certs === undefined ? rest : { ...rest, [DEFERRED_CA_CERTS]: certs };
}

/** Server side: puts a deferred NODE_EXTRA_CA_CERTS back (one set directly wins) and drops the carrier. */
export function restoreCaCerts(env: NodeJS.ProcessEnv = process.env): void {
  const certs = env[DEFERRED_CA_CERTS];
  if (certs === undefined) return;
  delete env[DEFERRED_CA_CERTS];
  env.NODE_EXTRA_CA_CERTS ??= certs;
}
