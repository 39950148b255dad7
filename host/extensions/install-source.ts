import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { InstallMetadata } from './loader.js';
import type { InstallRequest } from './install.js';
import { safeText } from '../safe-text.js';

// Where an extension's files come from (a git repository, a local folder, a link) and how they are
// fetched into the staging folder an install renames into place (install.ts).

const GIT_PREFIXES = ['http://', 'https://', 'git@', 'sso://', 'github:', 'gitlab:', 'ssh://', 'file://'];

export function isGitSource(source: string): boolean {
  return GIT_PREFIXES.some((p) => source.startsWith(p));
}

function isBareRepository(dir: string): boolean {
  return (
    ['HEAD', 'objects', 'refs'].every((n) => existsSync(join(dir, n))) &&
    !existsSync(join(dir, 'gemini-extension.json'))
  );
}

export function metadataFor(req: InstallRequest, cwd: string): InstallMetadata {
  if (req.link) return { source: resolve(cwd, req.source), type: 'link' };
  if (isGitSource(req.source))
    return {
      source: req.source,
      type: 'git',
      ...(req.ref ? { ref: req.ref } : {}),
      ...(req.autoUpdate ? { autoUpdate: true } : {}),
    };
  const source = resolve(cwd, req.source);
  // A bare git repository (HEAD, objects/ and refs/, no working files) named by its plain path is a git
  // source, as if written `file://…`: copying it would copy git's internals, not the extension.
  if (isBareRepository(source)) return metadataFor({ ...req, source: pathToFileURL(source).href }, cwd);
  if (req.ref || req.autoUpdate) throw new Error('--ref and --auto-update are not applicable for local extensions.');
  if (!existsSync(source)) throw new Error('Install source not found.');
  return { source, type: 'local' };
}

function git(args: string[], cwd?: string): void {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
  if (r.error) throw new Error(`git ${args[0]} failed: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`git ${args[0]} failed: ${(r.stderr || r.stdout).trim()}`);
}

/**
 * A `--ref` reaches `git checkout` as a word of its own: one that starts with `-` would be read as an option
 * (`--ref=-f` forces, `--ref=--orphan=x` makes a new branch), and control characters have no place in a
 * ref. Refused with the reason; tags, branches and commit ids pass.
 */
function checkRef(ref: string): void {
  if (ref.startsWith('-') || /[\u0000-\u001f\u007f\s]/.test(ref) || ref.includes('..'))
    throw new Error(`Invalid --ref "${safeText(ref)}": name a branch, tag or commit (it may not start with "-").`);
}

/** Fills `dir` (which must not exist yet) with the extension's files. */
export function fetchInto(meta: InstallMetadata, dir: string): void {
  if (meta.type === 'git') {
    if (meta.ref) checkRef(meta.ref);
    const url = meta.source.startsWith('github:') ? `https://github.com/${meta.source.slice(7)}.git` : meta.source;
    git(['clone', '--quiet', ...(meta.ref ? [] : ['--depth', '1']), '--', url, dir]);
    if (meta.ref) git(['checkout', '--quiet', meta.ref, '--'], dir);
  } else if (meta.type === 'local') {
    if (!statSync(meta.source).isDirectory()) throw new Error(`${meta.source} is not a folder.`);
    // Links are copied as written (not re-aimed at the source folder), then judged by refuseLinksLeaving.
    cpSync(meta.source, dir, { recursive: true, verbatimSymlinks: true });
  } else {
    mkdirSync(dir);
  }
}
