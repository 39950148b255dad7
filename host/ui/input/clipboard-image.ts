import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { writeFileAtomic } from '../../atomic-file.js';

/**
 * An image on the system clipboard, saved where Gemini CLI saves it (`<project temp>/images/
 * clipboard-<ms>.png`) so it can be sent as an `@path`. Read with the desktop's own tool: `wl-paste` on
 * Wayland, `xclip` on X11 (Gemini CLI's choice by session type; a display variable alone is enough here).
 * Without either, or without an image on the clipboard, nothing happens and the terminal's own paste
 * stays what Ctrl+V does.
 */

interface ClipboardTool {
  /** Lists the clipboard's types (MIME names, one a line). */
  types: string[];
  /** Writes the PNG image to stdout. */
  png: string[];
  command: string;
}

const TOOLS: Record<'wayland' | 'x11', ClipboardTool> = {
  wayland: { command: 'wl-paste', types: ['--list-types'], png: ['--no-newline', '--type', 'image/png'] },
  x11: {
    command: 'xclip',
    types: ['-selection', 'clipboard', '-t', 'TARGETS', '-o'],
    png: ['-selection', 'clipboard', '-t', 'image/png', '-o'],
  },
};

/** A clipboard tool never gets more than this: a clipboard owner that hangs does not hang the chat. */
const TIMEOUT_MS = 3000;
const MAX_BYTES = 20 * 1024 * 1024;

function toolFor(env: NodeJS.ProcessEnv): ClipboardTool | undefined {
  const session = env.XDG_SESSION_TYPE;
  const kind =
    session === 'wayland' || (!session && env.WAYLAND_DISPLAY)
      ? 'wayland'
      : session === 'x11' || env.DISPLAY
        ? 'x11'
        : undefined;
  if (!kind) return undefined;
  const tool = TOOLS[kind];
  const found = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool.command], { stdio: 'ignore', env });
  return found.status === 0 ? tool : undefined;
}

/** The tool's stdout, or undefined when it failed, timed out or gave more than MAX_BYTES. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_BYTES) child.kill('SIGKILL');
      else chunks.push(d);
    });
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && size <= MAX_BYTES ? Buffer.concat(chunks) : undefined);
    });
  });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Saves the clipboard's image under `projectTempDir/images`; its path, or undefined when there is none. */
export async function saveClipboardImage(projectTempDir: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const tool = toolFor(env);
  if (!tool) return undefined;
  const types = await run(tool.command, tool.types, env);
  if (
    !types
      ?.toString('utf8')
      .split('\n')
      .some((t) => t.trim() === 'image/png')
  )
    return undefined;
  const png = await run(tool.command, tool.png, env);
  if (!png?.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  const file = join(projectTempDir, 'images', `clipboard-${Date.now()}.png`);
  writeFileAtomic(file, png, { mode: 0o600, dirMode: 0o700 });
  return file;
}
