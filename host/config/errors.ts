import { FatalConfigError } from '../errors.js';

/** Invalid settings: the message names the file and, when known, the key (or line and column). Exit code 52. */
export class SettingsError extends FatalConfigError {
  constructor(
    message: string,
    readonly file?: string,
    readonly key?: string,
  ) {
    super(message);
    this.name = 'SettingsError';
  }
}
