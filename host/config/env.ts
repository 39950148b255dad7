/**
 * Child environments. Third-party stdio servers get the host environment minus anything that looks like
 * a secret (by name or by value); a secret reaches a server only through its own `env` entry. Built-in
 * servers get exactly what they need.
 */

import { SECRET_ENV_NAME } from '../../protocol/secret-names.js';

const SECRET_NAME = SECRET_ENV_NAME;

const SECRET_VALUE: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /^(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/,
  /^github_pat_[A-Za-z0-9_]{20,}/,
  /^glpat-[A-Za-z0-9_-]{16,}/,
  /^xox[abposr]-[A-Za-z0-9-]{10,}/,
  /^sk-[A-Za-z0-9_-]{16,}/,
  /^AIza[A-Za-z0-9_-]{30,}/,
  /^(AKIA|ASIA)[A-Z0-9]{16}$/,
  /^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./, // JWT
  /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i, // URL with user:password
];

/** What any process needs to run at all; none of it is a secret. */
const PROCESS_BASICS = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR'] as const;

/** Variables the host never drops: the process cannot run without them and they carry no secret. */
const ALWAYS_KEEP = new Set<string>([
  ...PROCESS_BASICS,
  'PWD',
  // Trust-store locations: names look like "CERT", values are paths, and TLS breaks without them.
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // Agent sockets and session plumbing: the names look secret ("AUTH", "SESSION") but the values are
  // addresses of agents that hold the keys and ask the user; git over ssh, signing and GUI tools need them.
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'GNUPGHOME',
  'DBUS_SESSION_BUS_ADDRESS',
  'XDG_SESSION_TYPE',
  'XDG_SESSION_ID',
  'XDG_RUNTIME_DIR',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XAUTHORITY',
  'DESKTOP_SESSION',
  'SESSION_MANAGER',
]);

/** A name ending in _SOCK / _SOCKET names a socket path (an agent's address), never a secret itself. */
const SOCKET_NAME = /_SOCK(ET)?$/;

export interface RedactionOverrides {
  /** Names kept even if they look secret (`security.environmentVariableRedaction.allowed`). */
  allowed?: string[];
  /** Names always dropped (`security.environmentVariableRedaction.blocked`). */
  blocked?: string[];
}

export function looksSecret(name: string, value: string): boolean {
  if (ALWAYS_KEEP.has(name)) return false;
  if (SOCKET_NAME.test(name) && value.startsWith('/')) return SECRET_VALUE.some((re) => re.test(value));
  return SECRET_NAME.test(name) || SECRET_VALUE.some((re) => re.test(value));
}

/** The host environment without secret-looking variables. */
export function sanitizedEnv(env: NodeJS.ProcessEnv, overrides: RedactionOverrides = {}): Record<string, string> {
  const allowed = new Set(overrides.allowed ?? []);
  const blocked = new Set(overrides.blocked ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || blocked.has(name)) continue;
    if (!allowed.has(name) && looksSecret(name, value)) continue;
    out[name] = value;
  }
  return out;
}

/** Picks the named variables that are set. */
export function pickEnv(env: NodeJS.ProcessEnv, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (env[n] !== undefined) out[n] = env[n]!;
  return out;
}

/** The non-secret basics every child needs (the SDK's own default set plus locale and proxy settings). */
export const BASE_ENV_NAMES = [
  ...PROCESS_BASICS,
  'LC_ALL',
  'TZ',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'GEMINI_MCP_DEBUG',
] as const;

/** What each built-in server needs beyond the basics. */
// NODE_EXTRA_CA_CERTS goes only where TLS is spoken: Node loads and parses the whole file at every
// process start, before any code runs (~45 ms for Debian's bundle on 2 shared cores), and the filesystem
// and memory servers never open a TLS connection. The shell and discovery servers get the user's whole
// (sanitised) environment, so the commands they run keep it, with the extra CAs under another name that
// their entries put back (protocol/deferred-ca-certs.ts): their own starts do not parse the file.
export const BUILTIN_ENV_NAMES: Record<string, readonly string[]> = {
  filesystem: [],
  web: [
    'NODE_EXTRA_CA_CERTS',
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'GOOGLE_GEMINI_BASE_URL',
    'GEMINI_MODEL',
    'GOOGLE_CLOUD_PROJECT',
    'GOOGLE_CLOUD_LOCATION',
    'GOOGLE_GENAI_USE_VERTEXAI',
  ],
  memory: ['GEMINI_CLI_HOME'],
};
