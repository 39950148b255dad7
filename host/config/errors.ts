/** Invalid settings: the message names the file and, when known, the key. Exit code 52. */
export class SettingsError extends Error {
  constructor(message: string, readonly file?: string, readonly key?: string) {
    super(message);
    this.name = 'SettingsError';
  }
}
