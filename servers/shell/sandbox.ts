import { SECRET_ENV_NAME } from '../../protocol/secret-names.js';
import { checkSandbox } from '../../protocol/sandbox/preflight.js';
import type { Confine } from './execute.js';

interface ShellSandboxOptions {
  /** Hosts commands may reach through the filtering proxy; empty: no network. */
  allowNet: string[];
  /** Paths to hide besides the default secrets. */
  secrets: string[];
}

/**
 * Roots at call time (and folders a command may read although a hidden folder holds them: the project
 * temp folder with saved outputs) → the confinement for one command.
 */
export type SandboxFor = (roots: readonly string[], readable?: readonly string[]) => Confine;

/**
 * Checks that the sandbox can be built (throws SandboxUnavailableError otherwise: the server must not
 * start) and returns the confinement every command then runs in.
 */
export function createShellSandbox(opts: ShellSandboxOptions): SandboxFor {
  const tools = checkSandbox({ needNet: opts.allowNet.length > 0 });
  return (roots, readable) => async (launch) => {
    // Loaded with the first sandboxed command: its network bridge (DNS, sockets) is no start-up cost.
    const { wrapCommand } = await import('../../protocol/sandbox/wrap.js');
    const wrapped = await wrapCommand({
      tools,
      writable: roots,
      cwd: launch.cwd,
      command: launch.file,
      args: launch.args,
      env: withoutSecrets(launch.env),
      allowNet: opts.allowNet,
      extraSecrets: opts.secrets,
      readable,
    });
    return { ...wrapped, cwd: launch.cwd };
  };
}

/** Named like secrets, holding none: git's command-scope configuration (git-env.ts) and identity. */
const GIT_CONFIG_ENTRY = /^(GIT_CONFIG_(KEY|VALUE)_\d+|GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE))$/;

/** Secrets in the environment are hidden like secret files: a command's output goes to the model. */
function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (GIT_CONFIG_ENTRY.test(k) || !SECRET_ENV_NAME.test(k)) out[k] = v;
  return out;
}
