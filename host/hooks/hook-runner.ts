import { spawn } from 'node:child_process';
import type { HookSpec } from './hook-config.js';

/** What one hook process did. */
export interface HookRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** It could not be started, or its stdin could not be written. */
  error?: string;
  durationMs: number;
}

/** Output kept per stream: a hook that floods its pipe must not hold the host's memory. */
const MAX_OUTPUT = 1024 * 1024;
/** After the timeout's SIGTERM, this long before the group gets SIGKILL. */
const KILL_GRACE_MS = 1000;

export interface RunContext {
  cwd: string;
  sessionId: string;
  /** The session's plans folder (`$GEMINI_PLANS_DIR`); absent before a session exists. */
  plansDir?: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/**
 * Runs a command hook with `bash -c` in its own process group, the JSON payload on stdin, and the
 * variables Gemini CLI (and Claude Code) set: GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_PLANS_DIR,
 * GEMINI_SESSION_ID, CLAUDE_PROJECT_DIR. At its timeout (or when the run is cancelled) the whole group is killed, so a hook
 * that started children leaves none behind; the session goes on.
 */
export function runHook(spec: HookSpec, payload: object, ctx: RunContext): Promise<HookRun> {
  const started = Date.now();
  const command = expandCommand(spec.command, ctx);
  const env = {
    ...ctx.env,
    GEMINI_PROJECT_DIR: ctx.cwd,
    GEMINI_CWD: ctx.cwd,
    ...(ctx.plansDir ? { GEMINI_PLANS_DIR: ctx.plansDir } : {}),
    GEMINI_SESSION_ID: ctx.sessionId,
    CLAUDE_PROJECT_DIR: ctx.cwd,
    ...spec.env,
  };
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let error: string | undefined;
    const child = spawn('bash', ['-c', command], {
      cwd: ctx.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        // Already gone.
      }
    };
    let grace: NodeJS.Timeout | undefined;
    const stop = () => {
      killGroup('SIGTERM');
      grace = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
      grace.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, spec.timeoutMs);
    const onAbort = () => stop();
    ctx.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += d.toString('utf8');
    });
    // A hook that does not read its stdin closes the pipe early: that is not its failure.
    child.stdin.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') error = `stdin: ${e.message}`;
    });
    child.stdin.end(JSON.stringify(payload));
    child.on('error', (e) => {
      error = e.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      ctx.signal?.removeEventListener('abort', onAbort);
      // The hook's own children may outlive it holding nothing we wait on; a timed-out group is killed.
      if (timedOut && grace === undefined) killGroup('SIGKILL');
      resolve({
        exitCode: code,
        stdout,
        stderr,
        timedOut,
        durationMs: Date.now() - started,
        ...(error ? { error } : {}),
      });
    });
  });
}

const EXPANDED = /\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)\b/y;

/**
 * Gemini CLI replaces these variables in the command itself, single-quoted, besides setting them in the
 * environment: a bare `$GEMINI_PROJECT_DIR/x.sh` then survives a path with spaces (inside single quotes
 * too, where 0.61's plain insertion splits such a path). Inside double quotes
 * we leave them to the shell, which expands them from the environment: quoting there too would put the
 * quotes into the path, and `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh` (Claude Code's documented form,
 * and what `hooks migrate` writes) would not run (Gemini CLI 0.61 breaks it so).
 */
export function expandCommand(command: string, ctx: Pick<RunContext, 'cwd' | 'sessionId' | 'plansDir'>): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const values: Record<string, string | undefined> = {
    GEMINI_PROJECT_DIR: ctx.cwd,
    GEMINI_CWD: ctx.cwd,
    GEMINI_PLANS_DIR: ctx.plansDir,
    GEMINI_SESSION_ID: ctx.sessionId,
    CLAUDE_PROJECT_DIR: ctx.cwd,
  };
  let out = '';
  let quote: '' | "'" | '"' = '';
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === '\\' && quote !== "'") {
      out += c + (command[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '$' && quote !== '"') {
      EXPANDED.lastIndex = i;
      const m = EXPANDED.exec(command);
      const value = m ? values[m[1]!] : undefined;
      if (m && value !== undefined) {
        // Inside single quotes: close them, add the quoted value, open them again.
        out += quote === "'" ? `'${q(value)}'` : q(value);
        i += m[0].length - 1;
        continue;
      }
    }
    if ((c === "'" || c === '"') && (quote === '' || quote === c)) quote = quote ? '' : c;
    out += c;
  }
  return out;
}
