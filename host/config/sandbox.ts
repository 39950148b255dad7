import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { McpServerSettings, Settings } from './settings-schema.js';

/** The sandbox the user asked for: the shell server's, and what a sandboxed command may reach. */
export interface SandboxChoice {
  /** Start the built-in shell server with `--sandbox`. */
  shell: boolean;
  /** Hosts sandboxed commands may reach (`tools.sandboxNetwork`, `--sandbox-allow-net`); empty: none. */
  allowNet: string[];
  /** Paths hidden besides the default secrets (`tools.sandboxSecrets`). */
  secrets: string[];
  /** `tools.sandboxAutoApprove`: in default mode a sandboxed shell command runs without asking. */
  autoApprove: boolean;
  /** Set when the sandbox asked for cannot be built here: why, and what to install (sandboxUnavailable). */
  unavailable?: string;
}

/** How the host starts a stdio server it confines (`mcpServers.<name>.sandbox`). */
export interface ServerSandbox {
  allowWrite: string[];
  allowNet: string[];
  secrets: string[];
}

const on = (v: string) => !['', '0', 'false', 'no', 'off'].includes(v.trim().toLowerCase());

/**
 * `-s/--sandbox` wins, then GEMINI_SANDBOX (true/1 on, false/0 off; Gemini CLI's container names such
 * as `docker` also turn it on — bubblewrap is the only sandbox here), then `tools.sandbox`.
 * `env` is the environment with the `.env` file beneath it, `processEnv` the process's own: a command
 * in the workspace can write `.env`, so GEMINI_SANDBOX from a file may only turn the sandbox on; "off"
 * counts only when the real environment says so.
 */
export function sandboxChoice(
  settings: Settings,
  opts: { flag?: boolean; allowNet?: string[]; env?: NodeJS.ProcessEnv; processEnv?: NodeJS.ProcessEnv } = {},
): SandboxChoice {
  const fromEnv = opts.env?.GEMINI_SANDBOX;
  const real = (opts.processEnv ?? process.env).GEMINI_SANDBOX;
  const envSays = fromEnv === undefined ? undefined : on(fromEnv) ? true : real !== undefined ? on(real) : undefined;
  const setting = settings.tools?.sandbox;
  const shell =
    opts.flag === true ||
    (envSays !== undefined ? envSays : typeof setting === 'string' ? on(setting) : setting === true);
  return {
    shell,
    allowNet: [...(settings.tools?.sandboxNetwork ?? []), ...(opts.allowNet ?? [])],
    secrets: settings.tools?.sandboxSecrets ?? [],
    autoApprove: settings.tools?.sandboxAutoApprove === true,
  };
}

const expand = (p: string, cwd: string) =>
  p === '~' ? homedir() : p.startsWith('~/') ? join(homedir(), p.slice(2)) : isAbsolute(p) ? p : resolve(cwd, p);

/**
 * `"sandbox": true` confines a stdio server the way the shell is confined (writes in the workspace
 * roots only, no network); `{ "allowWrite": [...], "allowNet": [...] }` names exactly where it may
 * write (paths relative to the entry's cwd, `~` for home) and which hosts it may reach.
 */
export function serverSandbox(
  entry: McpServerSettings,
  cwd: string,
  roots: readonly string[],
  choice?: SandboxChoice,
): ServerSandbox | undefined {
  const s = entry.sandbox;
  if (s === undefined || s === false) return undefined;
  const secrets = choice?.secrets ?? [];
  if (s === true) return { allowWrite: [...roots], allowNet: [], secrets };
  return {
    allowWrite: (s.allowWrite ?? []).map((p) => expand(p, cwd)),
    allowNet: s.allowNet ?? [],
    secrets,
  };
}

/**
 * Why the shell's sandbox cannot be built here, naming what to install or change; undefined when it
 * can or was not asked for. The shell server refuses to start in that case, and a run that asked for
 * confinement must not go on as if it had it.
 */
export async function sandboxUnavailable(choice: SandboxChoice): Promise<string | undefined> {
  if (!choice.shell) return undefined;
  const { findSandboxTools, SandboxUnavailableError } = await import('../../protocol/sandbox/preflight.js');
  try {
    findSandboxTools({ needNet: choice.allowNet.length > 0 });
    return undefined;
  } catch (err) {
    if (err instanceof SandboxUnavailableError) return err.message;
    throw err;
  }
}
