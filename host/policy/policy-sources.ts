import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { FatalInputError } from '../errors.js';
import { type PolicySource, standardPolicySources } from './policy-files.js';

/** Where the policy files of a run come from besides the standard folders. */
export interface ConfiguredPolicies {
  home: string;
  cwd: string;
  trusted: boolean;
  systemSettingsPath: string;
  /** `--policy` (user tier): a path that does not exist ends the run. */
  flagPaths?: readonly string[];
  /** Settings `policyPaths` (user tier) and `adminPolicyPaths` (admin tier), as Gemini CLI 0.61 names them. */
  policyPaths?: readonly string[];
  adminPolicyPaths?: readonly string[];
  /** `--admin-policy` (admin tier): when given, it takes the place of `adminPolicyPaths`, as in Gemini CLI. */
  adminFlagPaths?: readonly string[];
  /** Enabled extensions: their `policies/` folder is the extension tier. */
  extensions: ReadonlyArray<{ name: string; path: string }>;
}

/** `~` and `~/…` as Gemini CLI expands them; a relative path is the current folder's. */
const expand = (p: string, cwd: string) =>
  p === '~' ? homedir() : p.startsWith('~/') ? join(homedir(), p.slice(2)) : isAbsolute(p) ? p : resolve(cwd, p);

/**
 * Every policy source of the run in tier order, and what the user must be told about them. Paths the user
 * named are added to the standard folders (Gemini CLI lets them replace `~/.gemini/policies`; a user's own
 * deny rules there keep holding here). Admin paths are ignored when the system policy folder has files,
 * as in Gemini CLI: whoever administers the machine decides there.
 */
export function policySources(c: ConfiguredPolicies): { sources: PolicySource[]; notices: string[] } {
  const notices: string[] = [];
  const standard = standardPolicySources(c);
  const systemDir = standard[0]!.path;
  const fromFlag = !!c.adminFlagPaths?.length;
  const adminSource = fromFlag ? 'Admin (--admin-policy)' : 'Admin (adminPolicyPaths)';
  let admin = ((fromFlag ? c.adminFlagPaths : c.adminPolicyPaths) ?? []).map((p) => expand(p, c.cwd));
  if (admin.length && hasTomlFiles(systemDir)) {
    notices.push(
      `Security Warning: Ignoring ${fromFlag ? '--admin-policy' : 'adminPolicyPaths'} because system policies are already defined in ${systemDir}`,
    );
    admin = [];
  }
  for (const f of c.flagPaths ?? []) {
    if (!existsSync(expand(f, c.cwd))) throw new FatalInputError(`--policy ${f}: no such policy file or folder.`);
  }
  const named = (paths: readonly string[] | undefined, tier: 'user' | 'admin', source: string) =>
    (paths ?? []).map((p): PolicySource => ({ path: expand(p, c.cwd), tier, source, required: true }));
  return {
    sources: [
      standard[0]!,
      ...admin.map((path): PolicySource => ({ path, tier: 'admin', source: adminSource, required: true })),
      ...standard.slice(1),
      ...named(c.policyPaths, 'user', 'User (policyPaths)'),
      ...named(c.flagPaths, 'user', 'User (--policy)'),
      ...c.extensions.map(
        (e): PolicySource => ({ path: join(e.path, 'policies'), tier: 'extension', source: `extension:${e.name}` }),
      ),
    ],
    notices,
  };
}

function hasTomlFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((f) => f.endsWith('.toml'));
  } catch {
    return false;
  }
}
