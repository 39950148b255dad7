import { constants } from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isWithin } from '../../../protocol/path-within.js';

/** Context files are text a person wrote: far below this. A larger one is an accident or an attack. */
export const MAX_CONTEXT_FILE_BYTES = 4 * 1024 * 1024;

/** The file opened is not inside the folder it had to stay in. */
export class OutsideProjectError extends Error {}

/**
 * A context file's text, read only if what was opened is a regular file within the size bound and, with
 * `inside`, really lies in that folder. The check is made on the open descriptor (Linux names its file in
 * /proc/self/fd), so a link swapped in after the path was checked cannot send another file to the model;
 * opened without blocking, so a FIFO with no writer cannot hang the load. Throws with the reason.
 */
export async function readContextFile(path: string, inside?: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new Error('not a regular file');
    if (st.size > MAX_CONTEXT_FILE_BYTES) throw new Error(`larger than ${MAX_CONTEXT_FILE_BYTES / 1024 / 1024} MB`);
    if (inside !== undefined) {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => realpath(path));
      const root = await realpath(inside).catch(() => resolve(inside));
      if (!isWithin(root, opened)) throw new OutsideProjectError('it leads outside its project');
    }
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
