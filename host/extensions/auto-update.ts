import { spawnSync } from 'node:child_process';
import type { InstallIo } from './install.js';
import { loadExtensions, type LoadedExtension } from './loader.js';

/**
 * `--auto-update` extensions (installed from git): when the source's commit differs from the installed
 * clone's, the extension is re-installed from it with its settings kept, as Gemini CLI does at start.
 * The chat runs this in the background after start-up; the new version is used from the next session.
 */
function gitOut(args: string[], cwd?: string): string | undefined {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    timeout: 15_000,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** The source's commit for the installed ref (or its default branch); undefined when it cannot be asked. */
function remoteHead(ext: LoadedExtension): string | undefined {
  const meta = ext.installMetadata!;
  const out = gitOut(['ls-remote', '--', meta.source, meta.ref ?? 'HEAD']);
  return out?.split(/\s+/)[0] || undefined;
}

export function needsUpdate(ext: LoadedExtension): boolean {
  const meta = ext.installMetadata;
  if (meta?.type !== 'git' || !meta.autoUpdate) return false;
  const local = gitOut(['rev-parse', 'HEAD'], ext.installDir);
  const remote = remoteHead(ext);
  return !!local && !!remote && local !== remote;
}

/** Updates every auto-update extension that is behind its source; returns what changed. */
export async function autoUpdateExtensions(io: InstallIo): Promise<string[]> {
  const { updateExtension } = await import('./install.js');
  const done: string[] = [];
  for (const ext of loadExtensions({ cwd: io.cwd, env: io.env, homeDir: io.homeDir }).extensions) {
    if (!needsUpdate(ext)) continue;
    try {
      const r = await updateExtension(ext.name, io);
      done.push(`Extension "${r.name}" was updated: ${r.from} → ${r.to}. Restart to use it.`);
    } catch (err) {
      done.push(`Extension "${ext.name}" could not be updated: ${(err as Error).message}`);
    }
  }
  return done;
}
