import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A git repository outside the project (its GIT_DIR lives in the project temp dir) whose work tree is the
 * project: snapshots of the project's files that never touch the user's own `.git`, index or config. The
 * user's and the system's git config are ignored too, so no hook, signing or alias of theirs runs.
 */
export class ShadowGit {
  constructor(
    readonly workTree: string,
    readonly gitDir: string,
  ) {}

  private run(args: string[]): Promise<string> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GIT_DIR: this.gitDir,
      GIT_WORK_TREE: this.workTree,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: join(this.gitDir, 'shadow-gitconfig'),
      GIT_TERMINAL_PROMPT: '0',
    };
    for (const k of ['GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE', 'GIT_COMMON_DIR']) delete env[k];
    return new Promise((resolve, reject) => {
      execFile('git', args, { cwd: this.workTree, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`git ${args[0]} failed: ${(stderr || err.message).trim()}`));
        else resolve(stdout);
      });
    });
  }

  private async ensure(): Promise<void> {
    if (existsSync(join(this.gitDir, 'HEAD'))) return;
    mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(this.gitDir, 'shadow-gitconfig'), '', { mode: 0o600 });
    // --shared=0600: git itself writes every object and ref 0600 in 0700 folders, whatever the umask.
    await this.run(['init', '--quiet', '--shared=0600']);
    // The one file git writes outside that rule; it keeps an existing file's mode when it rewrites it.
    writeFileSync(join(this.gitDir, 'COMMIT_EDITMSG'), '', { mode: 0o600 });
    for (const [k, v] of [
      ['user.name', 'gemini-mcp checkpoints'],
      ['user.email', 'checkpoints@gemini-mcp.invalid'],
      ['commit.gpgsign', 'false'],
      ['core.autocrlf', 'false'],
      ['core.hooksPath', '/dev/null'],
    ]) {
      await this.run(['config', k!, v!]);
    }
  }

  /** Commits the project's current files (the project's .gitignore applies); returns the commit id. */
  async snapshot(message: string): Promise<string> {
    await this.ensure();
    await this.run(['add', '--all', '--', '.']);
    await this.run(['commit', '--quiet', '--allow-empty', '--no-verify', '-m', message]);
    return (await this.run(['rev-parse', 'HEAD'])).trim();
  }

  /**
   * Puts the project's files back as they were in `commit`: changed and deleted files restored, files
   * created since removed (ignored files are left alone).
   */
  async restore(commit: string): Promise<void> {
    if (!/^[0-9a-f]{7,64}$/.test(commit)) throw new Error(`Not a checkpoint commit: ${commit}`);
    await this.ensure();
    await this.run(['restore', `--source=${commit}`, '--staged', '--worktree', '--', '.']);
    await this.run(['clean', '--force', '-d', '--quiet', '--', '.']);
  }
}
