import { waitFor } from '../../helpers/wait.js';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import type { Workspace } from '../../helpers/run-host.js';
import { tempDir } from '../../helpers/tmp.js';

/**
 * A UI under test in a detached tmux session of fixed size, on a private tmux server (its own socket)
 * so parallel tests never share or kill each other's sessions.
 */
export class TmuxUi {
  readonly socket = `gmcui-${process.pid}-${randomUUID().slice(0, 8)}`;
  readonly session = 'ui';

  private constructor() {}

  static start(opts: {
    cwd: string;
    env: Record<string, string>;
    argv: string[];
    width?: number;
    height?: number;
    scriptDir: string;
  }): TmuxUi {
    const ui = new TmuxUi();
    const script = join(opts.scriptDir, `launch-${ui.socket}.sh`);
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const env = {
      LANG: 'C.UTF-8',
      NCURSES_NO_UTF8_ACS: '1',
      TERM: 'xterm-256color',
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: opts.env.GEMINI_CLI_HOME ?? process.env.HOME ?? '/tmp',
      ...opts.env,
    };
    // `env -i` keeps the runner's CI=true (headless detection) and API keys out of the UI.
    const lines = [
      '#!/bin/sh',
      `cd ${q(opts.cwd)}`,
      `env -i ${Object.entries(env)
        .map(([k, v]) => q(`${k}=${v}`))
        .join(' ')} ${opts.argv.map(q).join(' ')}`,
      'echo "[exited $?]"',
      'sleep 600',
    ];
    writeFileSync(script, lines.join('\n') + '\n');
    chmodSync(script, 0o755);
    ui.tmux(
      'new-session',
      '-d',
      '-s',
      ui.session,
      '-x',
      String(opts.width ?? 100),
      '-y',
      String(opts.height ?? 30),
      script,
    );
    return ui;
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  capture(): string {
    return this.tmux('capture-pane', '-p', '-t', this.session);
  }

  /** Polls the screen until `pred` holds (bounded); returns the screen that satisfied it. */
  async waitFor(what: string | RegExp | ((screen: string) => boolean), timeoutMs = 45_000): Promise<string> {
    const pred =
      typeof what === 'function' ? what : (s: string) => (typeof what === 'string' ? s.includes(what) : what.test(s));
    let screen = '';
    try {
      await waitFor(() => pred((screen = this.capture())), String(what), timeoutMs, 100);
    } catch {
      throw new Error(`timed out waiting for ${String(what)}; screen:\n${screen}`);
    }
    return screen;
  }

  /** Types literal text (no key names interpreted). */
  type(text: string): void {
    this.tmux('send-keys', '-t', this.session, '-l', text);
  }

  /** Types a message and presses Enter. */
  submit(text: string): void {
    this.type(text);
    this.keys('Enter');
  }

  keys(...names: string[]): void {
    this.tmux('send-keys', '-t', this.session, ...names);
  }

  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', this.session, '-x', String(width), '-y', String(height));
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
  }
}

/** The UI is ready for input once its prompt placeholder is drawn. */
export const INPUT_READY = 'Type your message';

/** Whether tmux can run here. */
export const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

const onCi = process.env.CI === 'true' || process.env.GITHUB_ACTIONS === 'true';

/**
 * A suite that drives the chat in tmux. Without tmux it never passes silently: on CI (which installs tmux)
 * it fails with the reason; on a developer's machine it is skipped under a title that says why.
 */
/**
 * The chat (`gemini-mcp`) in tmux for a workspace, talking to a scripted Gemini endpoint with a test key,
 * once it takes input: the start-up nearly every terminal test needs.
 */
export async function startChat(o: {
  ws: Workspace;
  url: string;
  width?: number;
  height?: number;
  /** Flags after the binary (`--approval-mode yolo`, …). */
  args?: string[];
}): Promise<TmuxUi> {
  const ui = TmuxUi.start({
    cwd: o.ws.cwd,
    scriptDir: tempDir('ui-scripts-'),
    env: { GEMINI_CLI_HOME: o.ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: o.url },
    argv: [process.execPath, requireBuilt(ENTRY.host), ...(o.args ?? [])],
    width: o.width,
    height: o.height,
  });
  await ui.waitFor(INPUT_READY);
  return ui;
}

export function describeTmux(name: string, body: () => void): void {
  if (hasTmux) {
    describe(name, body);
  } else if (onCi) {
    describe(name, () => {
      it('needs tmux, which CI installs', () => {
        throw new Error('tmux is not installed: the terminal UI suites need it (apt-get install tmux)');
      });
    });
  } else {
    describe.skip(`${name} [skipped: tmux is not installed]`, body);
  }
}
