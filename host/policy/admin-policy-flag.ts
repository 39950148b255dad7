import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PolicySource } from './policy-files.js';

/**
 * `--admin-policy FILE|DIR` (repeatable, or comma-separated): policy files of the admin tier, as in Gemini
 * CLI 0.61. Also like 0.61, they are ignored, with a warning, when the system policies folder already has
 * .toml files: a machine's administrator decides there, and a flag anyone can pass must not add to it.
 */
export function adminPolicySources(
  files: readonly string[] | undefined,
  systemPoliciesDir: string,
  cwd: string,
): { sources: PolicySource[]; warning?: string } {
  if (!files?.length) return { sources: [] };
  let systemFiles: string[] = [];
  try {
    systemFiles = readdirSync(systemPoliciesDir).filter((f) => f.endsWith('.toml'));
  } catch {
    // No system policies folder: the flag applies.
  }
  if (systemFiles.length)
    return {
      sources: [],
      warning: `Security Warning: Ignoring --admin-policy because system policies are already defined in ${systemPoliciesDir}`,
    };
  return { sources: files.map((f) => ({ path: resolve(cwd, f), tier: 'admin', source: 'Admin (--admin-policy)' })) };
}
