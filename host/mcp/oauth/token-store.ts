import { readFileSync, renameSync } from 'node:fs';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { writeFileAtomic } from '../../atomic-file.js';

/** What is kept for one server: its client registration and its tokens, as the SDK handed them over. */
export interface StoredCredentials {
  serverName: string;
  serverUrl: string;
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the tokens were saved (ms): with `expires_in`, when the access token runs out. */
  savedAt?: number;
}

type StoreFile = Record<string, StoredCredentials>;

/**
 * Remote MCP servers' OAuth credentials in one JSON file in the user's config directory. The file is
 * created with mode 0600 (tokens are secrets) and every change is written to a temp file in the same
 * directory, then renamed over it, so a crash never leaves half a file. Entries are keyed by server name
 * and URL: a server that moves to another URL starts over.
 */
export class TokenStore {
  constructor(private readonly file: string) {}

  static key(serverName: string, serverUrl: string): string {
    return `${serverName}|${serverUrl}`;
  }

  get(serverName: string, serverUrl: string): StoredCredentials | undefined {
    return this.read()[TokenStore.key(serverName, serverUrl)];
  }

  update(serverName: string, serverUrl: string, change: (entry: StoredCredentials) => StoredCredentials): void {
    const all = this.readForChange();
    const key = TokenStore.key(serverName, serverUrl);
    all[key] = change(all[key] ?? { serverName, serverUrl });
    this.write(all);
  }

  remove(serverName: string, serverUrl: string): boolean {
    const all = this.readForChange();
    const key = TokenStore.key(serverName, serverUrl);
    if (!(key in all)) return false;
    delete all[key];
    this.write(all);
    return true;
  }

  private read(): StoreFile {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as StoreFile) : {};
    } catch {
      return {};
    }
  }

  /**
   * The file as a change starts from. Writing replaces the whole file, so one that does not parse (a torn
   * edit by hand) is first kept beside it as `<file>.unreadable-<ms>` — the other servers' sign-ins in it are
   * not lost — and one that cannot be read at all stops the change with the reason.
   */
  private readForChange(): StoreFile {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`Cannot read the OAuth token file ${this.file}: ${(err as Error).message}`);
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as StoreFile;
    } catch {
      // Kept aside below.
    }
    renameSync(this.file, `${this.file}.unreadable-${Date.now()}`);
    return {};
  }

  private write(all: StoreFile): void {
    // Secrets: 0600 whatever the file's mode was, in a 0700 folder when we create it.
    writeFileAtomic(this.file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
  }
}
