import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tmp.js';

/**
 * A folder for PATH holding the programs a run needs and not bubblewrap, whether or not this machine
 * has it: the sandbox asked for cannot be built. (The host and servers run from process.execPath.)
 */
export function pathWithoutBwrap(): string {
  const bin = tempDir('sbx-nobwrap-bin-');
  for (const name of ['bash', 'sh', 'git', 'socat']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (found) symlinkSync(found, join(bin, name));
  }
  if (spawnSync('sh', ['-c', 'command -v bwrap'], { env: { PATH: bin } }).status === 0)
    throw new Error(`bwrap is still found on ${bin}`);
  return bin;
}
