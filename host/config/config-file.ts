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
  return withRegularFile(file, (fd, size) => {
    if (size > maxBytes) throw new ConfigFileError(tooLarge(file, size, maxBytes), file, 'refused');
    const { text, more } = readUpTo(fd, size, maxBytes);
    if (more) throw new ConfigFileError(tooLarge(file, maxBytes + 1, maxBytes), file, 'refused');
    return text;
  });
}

/**
 * The first `bytes` of the file (all of it when shorter), or undefined when it does not exist: the header
 * line of a file that may be large. The same checks as readConfigFile; a larger file is no error here.
 */
export function readConfigFileHead(file: string, bytes: number): string | undefined {
  return withRegularFile(file, (fd, size) => readUpTo(fd, size, bytes).text);
}

/** Opens without blocking, checks the descriptor is a regular file, runs `use`, closes; errors name the file. */
function withRegularFile(file: string, use: (fd: number, size: number) => string): string | undefined {
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
    return use(fd, stat.size);
  } catch (e) {
    if (e instanceof ConfigFileError) throw e;
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new ConfigFileError(`Cannot read ${file}: ${why}`, file, 'unreadable');
  } finally {
    closeSync(fd);
  }
}

/**
 * Up to `limit` bytes, and whether there were more: one byte past the limit is read, so a file that grows
 * after fstat is still read boundedly.
 */
function readUpTo(fd: number, size: number, limit: number): { text: string; more: boolean } {
  const buf = Buffer.allocUnsafe(Math.min(size, limit) + 1);
  let length = 0;
  for (;;) {
    const n = readSync(fd, buf, length, buf.length - length, null);
    if (n === 0) break;
    length += n;
    if (length === buf.length) break;
  }
  return { text: buf.toString('utf8', 0, Math.min(length, limit)), more: length > limit };
}

function tooLarge(file: string, size: number, max: number): string {
  return `Refusing to read ${file}: it is larger than ${Math.round(max / 1024 / 1024)} MB (${size} bytes or more)`;
}
