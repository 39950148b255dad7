import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { SettingsError } from './errors.js';
import { readJsoncObject } from './jsonc-file.js';
import { geminiHome } from './paths.js';
import { isWithin } from '../../protocol/path-within.js';

/**
 * Folder trust, in Gemini CLI's file format: `trustedFolders.json` maps a folder to TRUST_FOLDER,
 * TRUST_PARENT (the rule's parent folder and everything below it) or DO_NOT_TRUST. The rule whose
 * covered folder is deepest decides, and at equal depth distrust wins — not the longest stored key, which
 * let a TRUST_PARENT saved from a long-named sibling outrank a DO_NOT_TRUST on the folder itself. The
 * file sits beside the user's
 * settings (`GEMINI_CLI_TRUSTED_FOLDERS_PATH` moves it), never in a workspace: a folder cannot vouch for
 * itself.
 */

export const TRUST_LEVELS = ['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST'] as const;
export type TrustLevel = (typeof TRUST_LEVELS)[number];

export type TrustSource = 'disabled' | 'env' | 'flag' | 'file' | 'no-workspace-config' | 'undecided';

export interface TrustDecision {
  trusted: boolean;
  /** Why: folder trust off, the environment / `--skip-trust`, a saved rule, nothing to trust, or not yet asked. */
  source: TrustSource;
  /** The saved rule that decided (source `file`). */
  rule?: { path: string; level: TrustLevel };
}

export const TRUST_ENV = 'GEMINI_CLI_TRUST_WORKSPACE';

export function trustedFoldersPath(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(geminiHome(env, homeDir), '.gemini', 'trustedFolders.json');
}

const isLevel = (v: unknown): v is TrustLevel =>
  typeof v === 'string' && (TRUST_LEVELS as readonly string[]).includes(v);

/** The saved rules; a malformed file is a configuration error (exit 52) rather than a silent "untrusted". */
export function readTrustRules(file: string): Record<string, TrustLevel> {
  const { value } = readJsoncObject(file);
  const rules: Record<string, TrustLevel> = {};
  for (const [folder, level] of Object.entries(value)) {
    if (!isLevel(level)) {
      throw new SettingsError(
        `Invalid trust level ${JSON.stringify(level)} for "${folder}" in ${file}: use one of ${TRUST_LEVELS.join(', ')}`,
        file,
        folder,
      );
    }
    rules[resolve(folder)] = level;
  }
  return rules;
}

/** Real path when it exists, so a symlinked checkout and its target get the same answer. */
export function canonical(p: string): string {
  try {
    return existsSync(p) ? realpathSync(p) : resolve(p);
  } catch {
    return resolve(p);
  }
}

const covers = (folder: string, dir: string) => isWithin(folder, dir);

const depthOf = (folder: string) => folder.split(sep).filter(Boolean).length;

/**
 * The rule that decides for `dir`: among the rules whose folder covers it, the one whose folder is deepest
 * (most specific); at equal depth DO_NOT_TRUST beats a trusting rule, so a doubt is never resolved
 * towards trust.
 */
export function ruleFor(
  rules: Record<string, TrustLevel>,
  dir: string,
): { path: string; level: TrustLevel } | undefined {
  const location = canonical(dir);
  let best: { path: string; level: TrustLevel; depth: number } | undefined;
  for (const [path, level] of Object.entries(rules)) {
    const folder = canonical(level === 'TRUST_PARENT' ? dirname(path) : path);
    if (!covers(folder, location)) continue;
    const depth = depthOf(folder);
    const wins =
      !best || depth > best.depth || (depth === best.depth && level === 'DO_NOT_TRUST' && best.level !== level);
    if (wins) best = { path, level, depth };
  }
  return best && { path: best.path, level: best.level };
}

export interface DecideTrustOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  homeDir?: string;
  /** `security.folderTrust.enabled` from the user and system layers (default on). */
  enabled: boolean;
  /** `--skip-trust`: trusted for this run only. */
  skipTrust?: boolean;
  /** The folder has workspace settings or a workspace `.env`: something a prompt would be about. */
  hasWorkspaceConfig: boolean;
}

export function decideTrust(o: DecideTrustOptions): TrustDecision {
  if (o.skipTrust) return { trusted: true, source: 'flag' };
  const fromEnv = o.env[TRUST_ENV];
  if (fromEnv === 'true') return { trusted: true, source: 'env' };
  if (fromEnv === 'false') return { trusted: false, source: 'env' };
  if (!o.enabled) return { trusted: true, source: 'disabled' };
  const rule = ruleFor(readTrustRules(trustedFoldersPath(o.env, o.homeDir)), o.cwd);
  if (rule) return { trusted: rule.level !== 'DO_NOT_TRUST', source: 'file', rule };
  return o.hasWorkspaceConfig
    ? { trusted: false, source: 'undecided' }
    : { trusted: true, source: 'no-workspace-config' };
}

/**
 * The one notice for an untrusted folder: what was left out and how to trust it. Undefined when the folder
 * is trusted or nothing was left out.
 */
export function untrustedNotice(trust: TrustDecision, skipped: readonly string[]): string | undefined {
  if (trust.trusted || skipped.length === 0) return undefined;
  const why =
    trust.source === 'file'
      ? `your trusted-folders file says "don't trust" (rule ${trust.rule?.path})`
      : trust.source === 'env'
        ? `${TRUST_ENV}=false`
        : 'you have not trusted it yet';
  return (
    `This folder is not trusted (${why}), so its workspace configuration was not applied. ` +
    `Skipped: ${skipped.join('; ')}. ` +
    'To trust it: answer the prompt in the chat or run "gemini-mcp trust" here; ' +
    `for one run, pass --skip-trust or set ${TRUST_ENV}=true.`
  );
}
