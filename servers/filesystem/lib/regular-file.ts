import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

const errno = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

/**
 * Reads a whole file, refusing FIFOs, sockets and devices: a plain read of a FIFO blocks until a
 * writer appears, which would hang the call and pin a libuv thread. O_NONBLOCK makes the open itself
 * return at once; regular files ignore it.
 */
export async function readRegularFile(path: string): Promise<Buffer> {
  const fh = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw errno('EISDIR', 'illegal operation on a directory, read');
    if (!st.isFile()) throw errno('EINVAL', `not a regular file, read '${path}'`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}
