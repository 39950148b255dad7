import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deferCaCerts } from '../../protocol/deferred-ca-certs.js';
import { BASE_ENV_NAMES, BUILTIN_ENV_NAMES, pickEnv } from './env.js';
import type { SandboxChoice } from './sandbox.js';
import { DISCOVERY_ALIAS } from './server-names.js';
import { DEFAULT_CALL_TIMEOUT_MS, type ResolvedServerConfig, type ResolveServersOptions } from './servers.js';
import type { Settings } from './settings-schema.js';

/**
 * How the host runs its own servers: where their bundles are, the `--root` arguments that follow the
 * workspace, and the environment each gets (the shell the user's, less secrets; the others only the
 * variables they need). host/config/servers.ts adds them to the user's servers.
 */

let cachedRoot: string | undefined;

/** The package root, found by walking up from this module: works from source (vitest) and from dist. */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'gemini-mcp-cli') return (cachedRoot = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('gemini-mcp-cli package root not found');
    dir = up;
  }
}

/** The host environment without secret-looking variables (env.ts sanitizedEnv), a fresh copy per call. */
export type CleanEnv = () => Record<string, string>;

/** A built-in server's entry: the bundle `npm run build` writes to dist/bin. */
export function builtInEntry(name: string): string {
  const file = name === DISCOVERY_ALIAS ? 'gemini-mcp-discovery-bridge.cjs' : `gemini-mcp-${name}.cjs`;
  return join(packageRoot(), 'dist/bin', file);
}

export function rootArgs(opts: ResolveServersOptions): string[] {
  const roots = opts.roots?.length ? opts.roots : [opts.cwd];
  return [...roots.flatMap((r) => ['--root', resolve(r)]), '--project-temp-dir', opts.projectTempDir];
}

/** The same configuration with `--root` naming these directories instead (where the first one stood). */
export function withRootArgs(config: ResolvedServerConfig, roots: string[]): ResolvedServerConfig {
  const args = config.args ?? [];
  const at = args.indexOf('--root');
  if (!config.rootArgs || at < 0) return config;
  const rest = args.filter((a, i) => a !== '--root' && args[i - 1] !== '--root');
  const next = [...rest.slice(0, at), ...roots.flatMap((r) => ['--root', resolve(r)]), ...rest.slice(at)];
  const same = next.length === args.length && next.every((a, i) => a === args[i]);
  return same ? config : { ...config, args: next };
}

const BUILTIN_DESCRIPTIONS: Record<string, string> = {
  filesystem: 'Built-in: files in the workspace',
  shell: 'Built-in: shell commands',
  web: 'Built-in: web fetch and Google search',
  memory: 'Built-in: long-term memory (GEMINI.md)',
  [DISCOVERY_ALIAS]: 'Built-in: tools from tools.discoveryCommand',
};

/** One of our own servers (filesystem, shell, web, memory): its bundle, roots and the variables it needs. */
export function builtInServer(
  name: string,
  opts: ResolveServersOptions,
  env: NodeJS.ProcessEnv,
  clean: CleanEnv,
  fileNames: string[],
): ResolvedServerConfig {
  let childEnv: Record<string, string>;
  if (name === 'shell') {
    // The shell runs the user's own commands: their environment, minus secrets and never the API key; the
    // extra CAs reach the commands without the server's own start parsing them.
    childEnv = deferCaCerts(clean());
    for (const k of BUILTIN_ENV_NAMES.web!) if (/KEY/.test(k)) delete childEnv[k];
  } else {
    childEnv = pickEnv(env, [...BASE_ENV_NAMES, ...(BUILTIN_ENV_NAMES[name] ?? [])]);
    if (name === 'memory' && opts.homeDir) childEnv.GEMINI_CLI_HOME = opts.homeDir;
  }
  const sandboxed = name === 'shell' && opts.sandbox?.shell === true;
  return {
    alias: name,
    builtIn: true,
    trust: false,
    transport: 'stdio',
    command: process.execPath,
    args: [
      builtInEntry(name),
      ...rootArgs(opts),
      ...(name === 'memory' ? fileNames.flatMap((f) => ['--context-file-name', f]) : []),
      ...(sandboxed ? shellSandboxArgs(opts.sandbox!) : []),
    ],
    ...(sandboxed ? { sandboxed: true } : {}),
    env: { ...childEnv, GEMINI_CLI: '1' },
    cwd: opts.cwd,
    timeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    description: BUILTIN_DESCRIPTIONS[name],
    startup: 'lazy',
    // Our servers' listings depend on their flags and these variables, never on the user's other ones.
    listingEnvNames: [...BASE_ENV_NAMES, ...(BUILTIN_ENV_NAMES[name] ?? [])],
    rootArgs: true,
  };
}

function shellSandboxArgs(s: SandboxChoice): string[] {
  return [
    '--sandbox',
    ...(s.allowNet.length ? ['--sandbox-allow-net', s.allowNet.join(',')] : []),
    ...s.secrets.flatMap((p) => ['--sandbox-secret', p]),
  ];
}

/** The server that offers `tools.discoveryCommand`'s tools. */
export function discoveryBridgeServer(
  settings: Settings,
  opts: ResolveServersOptions,
  clean: CleanEnv,
): ResolvedServerConfig {
  const args = [builtInEntry(DISCOVERY_ALIAS), '--discovery-command', settings.tools!.discoveryCommand!];
  if (settings.tools?.callCommand) args.push('--call-command', settings.tools.callCommand);
  return {
    alias: DISCOVERY_ALIAS,
    builtIn: true,
    trust: false,
    transport: 'stdio',
    command: process.execPath,
    args: [...args, ...rootArgs(opts)],
    env: { ...deferCaCerts(clean()), GEMINI_CLI: '1' },
    cwd: opts.cwd,
    timeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    description: BUILTIN_DESCRIPTIONS[DISCOVERY_ALIAS],
    startup: 'lazy',
  };
}
