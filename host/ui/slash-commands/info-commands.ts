import { readJsoncObject } from '../../config/jsonc-file.js';
import { closestNames } from '../../scheduler/texts.js';
import { SETTINGS_SET_USAGE, settingsSet } from './settings-set.js';
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { arch, platform, release } from 'node:os';
import { resolve } from 'node:path';
import { VERSION } from '../../../protocol/version.js';
import { KNOWN_MODEL_NAMES, MODEL_ALIAS_AUTO, MODEL_CHOICES, modelChain } from '../../core/models.js';
import { needSession, type ChatCommand, type ChatCommandContext } from './command-context.js';
import { SHOWN_LINES, showDebugLog } from '../views/debug-log.js';
import { lastAnswer } from '../views/history-view.js';

/** `/about`: versions and where this session lives. */
export const aboutCommand: ChatCommand = (_input, ctx) => {
  const p = ctx.palette;
  const rows: [string, string][] = [
    ['gemini-mcp', VERSION],
    ['model', ctx.session?.client.model ?? '(no model client)'],
    ['node', process.version],
    ['os', `${platform()} ${release()} (${arch()})`],
    ['session', ctx.recorder()?.id ?? '(not recorded)'],
    ['project temp dir', ctx.runtime?.projectTempDir ?? '(starting)'],
    ['sandbox', sandboxLine(ctx.runtime?.sandbox)],
  ];
  ctx.print([p.bold('About'), ...rows.map(([k, v]) => `  ${k.padEnd(17)} ${v}`)].join('\n'));
};

function sandboxLine(s: { shell: boolean; allowNet: string[]; autoApprove: boolean } | undefined): string {
  if (!s) return '(starting)';
  if (!s.shell) return 'off (shell commands run with your rights; -s/--sandbox turns it on)';
  const net = s.allowNet.length ? `network: ${s.allowNet.join(', ')}` : 'no network';
  return `shell commands sandboxed (bubblewrap; ${net}${s.autoApprove ? '; run without asking' : ''})`;
}

/** Leaf paths of a settings object; server blocks and arrays count as leaves. */
function leaves(obj: unknown, prefix = ''): string[] {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj) || prefix.split('.').length > 2)
    return prefix ? [prefix] : [];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

function hasPath(obj: unknown, path: string): boolean {
  let cur = obj;
  for (const key of path.split('.')) {
    if (!cur || typeof cur !== 'object' || !(key in (cur as object))) return false;
    cur = (cur as Record<string, unknown>)[key];
  }
  return true;
}

/** `/settings`: the merged settings, each key with the file that set it (the last one to define it wins). */
export const settingsCommand: ChatCommand = (input, ctx) => {
  if (input.args[0] === 'set') return settingsSet(input.args.slice(1), ctx);
  const p = ctx.palette;
  const settings = ctx.session?.runtime.settings;
  if (!settings) return ctx.error('Settings are still loading.');
  const files = settings.files.map((f) => {
    let json: unknown;
    try {
      // The settings files' one reader: comments of both kinds, with positions kept.
      json = readJsoncObject(f.path).value;
    } catch {
      json = undefined;
    }
    return { ...f, json };
  });
  const lines = [
    p.bold('Settings files (later wins)'),
    ...files.map((f) => `  ${f.scope.padEnd(15)} ${f.path}`),
    p.bold('Merged settings'),
  ];
  for (const key of leaves(settings.merged)) {
    const source = [...files].reverse().find((f) => hasPath(f.json, key));
    const value = JSON.stringify(
      key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], settings.merged),
    );
    const shown = value && value.length > 90 ? `${value.slice(0, 89)}…` : value;
    lines.push(`  ${p.cyan(key)} = ${shown} ${p.gray(`(${source?.scope ?? 'default'})`)}`);
  }
  if (leaves(settings.merged).length === 0) lines.push(p.gray('  (all defaults)'));
  lines.push(p.gray(SETTINGS_SET_USAGE.replace('Usage: ', 'Change one: ')));
  ctx.print(lines.join('\n'));
};

/** The choices, the chosen one marked, and the model in use for it (another after a usage limit). */
function modelList(ctx: ChatCommandContext, choice: { requested: string; inUse: string; first: string }): string {
  const p = ctx.palette;
  const list = [...new Set([choice.requested, ...MODEL_CHOICES])].map((m) => {
    const note = m === MODEL_ALIAS_AUTO ? p.gray(`  ${modelChain(m).join(', then ')} on a usage limit`) : '';
    return `  ${m === choice.requested ? p.green('●') : ' '} ${m}${note}`;
  });
  const fallback = choice.inUse !== choice.first ? ` (fallback: the usage limit of ${choice.first} was reached)` : '';
  return [
    p.bold('Model'),
    ...list,
    `In use: ${p.cyan(choice.inUse)}${fallback}`,
    p.gray('/model NAME switches for this session (also pro, flash, flash-lite).'),
  ].join('\n');
}

/** `/model` shows the choices and the model in use; `/model NAME` switches to NAME for the rest of the session. */
export const modelCommand: ChatCommand = (input, ctx) => {
  const session = needSession(ctx);
  if (!session) return;
  const p = ctx.palette;
  const name = input.args[0];
  if (!name) return ctx.print(modelList(ctx, session.client.modelChoice));
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return ctx.error(`"${name}" is not a model name.`);
  const known = [...new Set([session.client.modelChoice.requested, ...KNOWN_MODEL_NAMES])];
  // A typo would only fail at the next message (404): say so now. A model not listed yet is still usable.
  if (!known.includes(name) && input.args[1] !== '--force') {
    const near = closestNames(name, known, 1, Math.max(3, Math.floor(name.length / 3)));
    return ctx.error(
      [
        `"${name}" is not a known model${near.length ? ` (did you mean ${near[0]}?)` : ''}; the model is unchanged.`,
        `Known models: ${known.join(', ')}.`,
        `/model ${name} --force uses it anyway.`,
      ].join('\n'),
    );
  }
  session.client.setModel(name);
  const inUse = session.client.model;
  ctx.setModelLabel(inUse);
  ctx.print(`Model switched to ${p.cyan(name)}${inUse !== name ? ` (${inUse})` : ''} for this session.`);
};

/** `/directory add PATH[,PATH]` adds workspace roots (the servers are told); `/directory show` lists them. */
export const directoryCommand: ChatCommand = async (input, ctx) => {
  const rt = ctx.session?.runtime;
  if (!rt) return ctx.error('The host runtime is still starting.');
  const [sub] = input.args;
  if (!sub || sub === 'show' || sub === 'list') {
    return ctx.print([ctx.palette.bold('Workspace directories'), ...rt.roots.map((r) => `  ${r}`)].join('\n'));
  }
  if (sub !== 'add') return ctx.error('Usage: /directory add PATH[,PATH...] | show');
  const paths = input.rest
    .replace(/^add\s*/, '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!paths.length) return ctx.error('Usage: /directory add PATH[,PATH...]');
  const added: string[] = [];
  for (const raw of paths) {
    const dir = resolve(ctx.cwd, raw.replace(/^~(?=\/|$)/, process.env.HOME ?? '~'));
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      ctx.error(`Not a directory: ${dir}`);
      continue;
    }
    if (!rt.roots.includes(dir)) {
      rt.roots.push(dir);
      added.push(dir);
    }
  }
  if (!added.length) return;
  await rt.manager.setRoots(rt.roots);
  ctx.print(`Added to the workspace: ${added.join(', ')}`);
};

const CLIPBOARD_TOOLS: [string, string[]][] = [
  ['pbcopy', []],
  ['wl-copy', []],
  ['xclip', ['-selection', 'clipboard']],
  ['xsel', ['--clipboard', '--input']],
];

/** Copies through the first clipboard tool that works; otherwise asks the terminal to (OSC 52). */
export function copyToClipboard(text: string, writeTerminal: (s: string) => void, env = process.env): 'tool' | 'osc52' {
  const hasDisplay = platform() === 'darwin' || !!env.DISPLAY || !!env.WAYLAND_DISPLAY;
  if (hasDisplay) {
    for (const [cmd, args] of CLIPBOARD_TOOLS) {
      const r = spawnSync(cmd, args, { input: text, stdio: ['pipe', 'ignore', 'ignore'], timeout: 3000 });
      if (r.status === 0) return 'tool';
    }
  }
  const seq = `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
  // Inside tmux the sequence must be wrapped to reach the outer terminal.
  writeTerminal(env.TMUX ? `\x1bPtmux;${seq.replace(/\x1b/g, '\x1b\x1b')}\x1b\\` : seq);
  return 'osc52';
}

/** `/copy`: the last answer to the clipboard. */
export const copyCommand: ChatCommand = (_input, ctx) => {
  const text = ctx.session ? lastAnswer(ctx.session.client.chat.getHistory(false)) : undefined;
  if (!text) return ctx.error('Nothing to copy yet: there is no answer from the model.');
  const how = copyToClipboard(text, (s) => ctx.writeTerminal(s));
  ctx.print(
    `Copied the last answer (${text.length} characters) to the clipboard${how === 'osc52' ? ' through the terminal (OSC 52)' : ''}.`,
  );
};

const INIT_PROMPT = `Create a GEMINI.md file in the project root (the current working directory) that gives an AI agent the
context it needs to work in this project. First explore: list the top-level files, read the README, the build
and package files, and a few representative sources. Then write GEMINI.md with the write_file tool, covering:
what the project is and its main technologies; how to build, run and test it (exact commands); the layout
of the source tree; and the coding conventions you observed. Keep it factual and concise.`;

/** `/init`: asks the model to explore the project and write GEMINI.md. */
export const initCommand: ChatCommand = (_input, ctx) => {
  if (!needSession(ctx)) return;
  const file = resolve(ctx.cwd, 'GEMINI.md');
  if (existsSync(file)) return ctx.error(`${file} already exists; edit it, or delete it and run /init again.`);
  ctx.submitPrompt(INIT_PROMPT, '/init');
};

export const debugCommand: ChatCommand = (input, ctx) => {
  const arg = input.rest.trim();
  if (arg === 'clear') {
    ctx.debugLog.clear();
    return ctx.print(ctx.palette.gray('Debug log cleared.'));
  }
  const n = arg ? Number.parseInt(arg, 10) : SHOWN_LINES;
  if (!Number.isInteger(n) || n <= 0) return ctx.error('/debug takes a number of lines or "clear".');
  ctx.print(showDebugLog(ctx.debugLog, ctx.palette, n));
};
