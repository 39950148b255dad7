import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { ENTRY, requireBuilt } from './paths.js';
import { startScriptedGemini, type ScriptEntry, type ScriptedGemini } from './scripted-gemini.mjs';
import { tempDir } from './tmp.js';

export interface HostRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Workspace {
  home: string;
  cwd: string;
  /** Writes `~/.gemini/settings.json` in the temp home. */
  settings(obj: unknown): void;
  file(rel: string, text: string): string;
}

/** A temp home (GEMINI_CLI_HOME) and a temp project directory. */
export function workspace(): Workspace {
  const root = tempDir('gmc-loop-');
  const home = join(root, 'home');
  const cwd = join(root, 'proj');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return {
    home,
    cwd,
    settings: (obj) => writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(obj, null, 2)),
    file: (rel, text) => {
      const p = join(cwd, rel);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, text);
      return p;
    },
  };
}

/** Only the built-ins a test needs, to keep process count (and machine load) down. */
export const ONLY = (...keep: string[]) => ({
  mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'].filter((s) => !keep.includes(s)) },
});

export interface SpawnOptions {
  ws: Workspace;
  url?: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Stdin from elsewhere instead of a pipe: `'ignore'` is /dev/null, a number an open file. */
  stdinFrom?: 'ignore' | number;
}

export function spawnHost(args: string[], opts: SpawnOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, GEMINI_CLI_HOME: opts.ws.home, GEMINI_MCP_RETRY_DELAY_MS: '20' };
  for (const k of [
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'GOOGLE_GENAI_USE_VERTEXAI',
    'GOOGLE_GEMINI_BASE_URL',
    'GEMINI_MODEL',
    'CI',
  ])
    delete env[k];
  if (opts.url) Object.assign(env, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: opts.url });
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const child = spawn(process.execPath, [requireBuilt(ENTRY.host), ...args], {
    cwd: opts.ws.cwd,
    env,
    stdio: [opts.stdinFrom ?? 'pipe', 'pipe', 'pipe'],
  });
  child.stdin?.end(opts.stdin ?? '');
  return child;
}

export function collect(child: ChildProcess): { done: Promise<HostRun>; stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<HostRun>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { done, stdout: () => stdout, stderr: () => stderr };
}

export function runHost(args: string[], opts: SpawnOptions): Promise<HostRun> {
  return collect(spawnHost(args, opts)).done;
}

/** Starts scripted endpoints on demand and closes them after the file's tests. */
export function scriptedEndpoints(): (...entries: ScriptEntry[]) => Promise<ScriptedGemini> {
  const endpoints: ScriptedGemini[] = [];
  afterAll(() => Promise.all(endpoints.map((e) => e.close())));
  return async (...entries) => {
    const ep = await startScriptedGemini(entries);
    endpoints.push(ep);
    return ep;
  };
}
