import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './paths.js';

/** After the run: the per-worker bundles of `bundledModule` are not needed any more. */
export default function setup(): () => void {
  return () => rmSync(join(REPO, 'dist/test-modules'), { recursive: true, force: true });
}
