import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultProjectTempDir } from '../../config/paths.js';
import { writeFileAtomic } from '../../atomic-file.js';
import { geminiCliPrompts } from '../../sessions/gemini-cli-folder.js';

const MAX_ENTRIES = 500;

/**
 * Input history, newest last, persisted per project as JSON (`<projectTempDir>/input-history.json`).
 * Up/Down walk it; the line being typed is kept as a draft and restored when walking past the newest.
 */
export class InputHistory {
  private entries: string[] = [];
  private index = -1;
  private draft = '';

  constructor(readonly file?: string) {}

  static fileFor(projectTempDir: string): string {
    return join(projectTempDir, 'input-history.json');
  }

  /**
   * The history file under the default project temp dir (as host/config/settings.ts derives it), known
   * before the host runtime loads, so Up works at once; the runtime's own dir replaces it if different.
   */
  static defaultFile(cwd: string, env: NodeJS.ProcessEnv): string {
    return InputHistory.fileFor(defaultProjectTempDir(cwd, env));
  }

  /**
   * Reads the history. A project with none of ours yet starts from Gemini CLI's (its Up key's prompts in
   * this project), so a Gemini CLI user's recent prompts are one key away here too.
   */
  load(): this {
    if (!this.file) return this;
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      if (Array.isArray(data))
        this.entries = data.filter((e): e is string => typeof e === 'string').slice(-MAX_ENTRIES);
    } catch (err) {
      // A missing or unreadable history is an empty one.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        this.entries = geminiCliPrompts(dirname(this.file)).slice(-MAX_ENTRIES);
    }
    return this;
  }

  list(): readonly string[] {
    return this.entries;
  }

  add(entry: string): void {
    this.reset();
    if (entry.trim() === '') return;
    if (this.entries[this.entries.length - 1] !== entry) this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    this.save();
  }

  /** The entry before the current one, or undefined at the oldest. `current` is stashed as the draft. */
  prev(current: string): string | undefined {
    if (this.entries.length === 0) return undefined;
    if (this.index === -1) {
      this.draft = current;
      this.index = this.entries.length;
    }
    if (this.index === 0) return undefined;
    this.index--;
    return this.entries[this.index];
  }

  next(): string | undefined {
    if (this.index === -1) return undefined;
    this.index++;
    if (this.index >= this.entries.length) {
      this.index = -1;
      return this.draft;
    }
    return this.entries[this.index];
  }

  reset(): void {
    this.index = -1;
    this.draft = '';
  }

  private save(): void {
    if (!this.file) return;
    try {
      // What the user typed is private: 0600 in a 0700 folder, whatever the umask.
      writeFileAtomic(this.file, JSON.stringify(this.entries), { mode: 0o600, dirMode: 0o700 });
    } catch {
      // History is a convenience; a read-only home must not break the chat.
    }
  }
}
