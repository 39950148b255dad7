import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { SettingsError } from './errors.js';

/**
 * Reading a configuration file someone else may have placed (settings, `.env`, trusted folders, another
 * client's `.mcp.json`): only a regular file, only up to a size cap, and never blocking. The file is
 * opened with O_NONBLOCK (a FIFO with no writer opens at once instead of hanging), then the open
 * descriptor is checked — not the path, which could be swapped between a check and the open.
 */

/** Far above any real settings file; a multi-gigabyte "settings.json" is an attack or an accident. */
export const CONFIG_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** A configuration file we refuse to read: not a regular file, too large, or unreadable. Exit code 52. */
export class ConfigFileError extends SettingsError {
  constructor(
    message: string,
    file: string,
    /** `refused`: not a regular file or too large; `unreadable`: the system would not let us read it. */
    readonly reason: 'refused' | 'unreadable',
  ) {
    super(message, file);
    this.name = 'ConfigFileError';
  }
}

const MISSING = new Set(['ENOENT', 'ENOTDIR']);

function kindOf(stat: import('node:fs').Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The file's text, or undefined when it does not exist. Throws ConfigFileError, naming the file, for
 * anything that is not a regular file, anything over `maxBytes`, and read errors.
 */
export function readConfigFile(file: string, maxBytes = CONFIG_FILE_MAX_BYTES): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (MISSING.has(code)) return undefined;
    throw new ConfigFileError(`Cannot read ${file}: ${code || (e as Error).message}`, file, 'unreadable');
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ConfigFileError(`Refusing to read ${file}: it is ${kindOf(stat)}`, file, 'refused');
    if (stat.size > maxBytes) throw new ConfigFileError(tooLarge(file, stat.size, maxBytes), file, 'refused');
    // Read at most one byte past the cap: a file that grows after fstat is still bounded.
    const buf = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw new ConfigFileError(tooLarge(file, length, maxBytes), file, 'refused');
      if (length === buf.length) break;
    }
    return buf.subarray(0, length).toString('utf8');
  } catch (e) {
    if (e instanceof ConfigFileError) throw e;
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new ConfigFileError(`Cannot read ${file}: ${why}`, file, 'unreadable');
  } finally {
    closeSync(fd);
  }
}

function tooLarge(file: string, size: number, max: number): string {
  return `Refusing to read ${file}: it is larger than ${Math.round(max / 1024 / 1024)} MB (${size} bytes or more)`;
}
