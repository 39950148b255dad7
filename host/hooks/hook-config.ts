import { join } from 'node:path';
import { ConfigFileError, readConfigFile } from '../config/config-file.js';
import { parseJsoncObject } from '../config/jsonc-file.js';

/**
 * Hooks as settings.json writes them, in Gemini CLI's format (`BeforeTool`, …, timeouts in milliseconds)
 * or Claude Code's (`PreToolUse`, …, timeouts in seconds). The two are told apart per `hooks` block: a
 * block that names any event only Claude Code has (PreToolUse, PostToolUse, UserPromptSubmit, Stop,
 * SubagentStop, PreCompact) is Claude Code's, its `SessionStart`, `SessionEnd` and `Notification`
 * included; any other block is Gemini CLI's.
 */

/** Gemini CLI's events: the names the host fires. */
export const HOOK_EVENTS = [
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'SessionStart',
  'SessionEnd',
  'PreCompress',
  'Notification',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's events and the Gemini CLI event each one fires on. */
export const CLAUDE_EVENTS: Readonly<Record<string, HookEvent>> = {
  PreToolUse: 'BeforeTool',
  PostToolUse: 'AfterTool',
  UserPromptSubmit: 'BeforeAgent',
  Stop: 'AfterAgent',
  SubagentStop: 'AfterAgent',
  PreCompact: 'PreCompress',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  Notification: 'Notification',
};
const CLAUDE_ONLY = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact'];

export type HookFormat = 'gemini' | 'claude';

/** One command hook, ready to run. */
export interface HookSpec {
  /** The event it fires on (Gemini CLI's name). */
  event: HookEvent;
  /** The event name as written (Claude Code's `PreToolUse` for a Claude block). */
  writtenEvent: string;
  format: HookFormat;
  matcher?: string;
  sequential: boolean;
  command: string;
  name?: string;
  description?: string;
  timeoutMs: number;
  env?: Record<string, string>;
  /** `user`, `project`, `system`, `extension:<name>`, with the file it came from. */
  source: string;
  file: string;
}

/** A place hooks come from: a settings file, or an extension folder holding `hooks/hooks.json`. */
export interface HookSource {
  /** A settings.json file, or a folder whose `hooks/hooks.json` is read. */
  path: string;
  source: string;
  /** A folder (extension) rather than a settings file. */
  folder?: boolean;
}

export interface LoadedHooks {
  hooks: HookSpec[];
  problems: string[];
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Gemini CLI's off-switches, read from the merged settings: `hooksConfig.enabled: false` turns every hook
 * off, and `hooksConfig.disabled` drops the hooks it names (by `name`, else by command). Older Gemini CLI
 * kept both inside the `hooks` block (`hooks.enabled`, `hooks.disabled`); those are read too, and
 * `hooksConfig.enabled` wins over `hooks.enabled` when both are set.
 */
export interface HookSwitches {
  enabled: boolean;
  disabled: readonly string[];
}

export function hookSwitches(merged: Record<string, unknown>): HookSwitches {
  const config = isObject(merged.hooksConfig) ? merged.hooksConfig : {};
  const legacy = isObject(merged.hooks) ? merged.hooks : {};
  const enabled = typeof config.enabled === 'boolean' ? config.enabled : legacy.enabled !== false;
  const names = (v: unknown) => (Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : []);
  return { enabled, disabled: [...new Set([...names(config.disabled), ...names(legacy.disabled)])] };
}

/**
 * Reads every source's `hooks`; a bad entry is reported with its file and the rest load. Switched off
 * (`switches`), nothing is read; a disabled hook is dropped wherever it is defined.
 */
export function loadHooks(
  sources: readonly HookSource[],
  switches: HookSwitches = { enabled: true, disabled: [] },
): LoadedHooks {
  if (!switches.enabled) return { hooks: [], problems: [] };
  const hooks: HookSpec[] = [];
  const problems: string[] = [];
  for (const src of sources) {
    const file = src.folder ? join(src.path, 'hooks', 'hooks.json') : src.path;
    let doc: Record<string, unknown>;
    try {
      // Through the one safe reader: a hooks file linked to a FIFO or a device is refused, never waited on.
      const text = readConfigFile(file);
      if (text === undefined) continue;
      doc = parseJsoncObject(text, file);
    } catch (err) {
      problems.push(err instanceof ConfigFileError ? err.message : `${file}: ${(err as Error).message}`);
      continue;
    }
    // An extension's hooks.json holds `{ "hooks": {…} }`; the events may also sit at its top level.
    const block = doc.hooks ?? (src.folder ? doc : undefined);
    if (block === undefined) continue;
    if (!isObject(block)) {
      problems.push(`${file}: "hooks" must be an object of events`);
      continue;
    }
    readBlock(block, { ...src, path: file }, hooks, problems);
  }
  const off = new Set(switches.disabled);
  return { hooks: hooks.filter((h) => !off.has(hookName(h))), problems };
}

function readBlock(block: Record<string, unknown>, src: HookSource, out: HookSpec[], problems: string[]): void {
  const format: HookFormat = Object.keys(block).some((k) => CLAUDE_ONLY.includes(k)) ? 'claude' : 'gemini';
  for (const [written, defs] of Object.entries(block)) {
    // Gemini CLI keeps its on/off lists beside the events.
    if (['enabled', 'disabled', 'notifications'].includes(written)) continue;
    const event = format === 'claude' ? CLAUDE_EVENTS[written] : HOOK_EVENTS.find((e) => e === written);
    if (!event) {
      problems.push(
        `${src.path}: unknown hook event "${written}" (${format === 'claude' ? 'Claude Code' : 'Gemini CLI'} format)`,
      );
      continue;
    }
    if (!Array.isArray(defs)) {
      problems.push(`${src.path}: hooks.${written} must be a list of { matcher, hooks: [...] }`);
      continue;
    }
    defs.forEach((def, i) => {
      if (!isObject(def) || !Array.isArray(def.hooks)) {
        problems.push(`${src.path}: hooks.${written}[${i}] needs a "hooks" list`);
        return;
      }
      def.hooks.forEach((h, j) => {
        const spec = toSpec(h, { event, written, format, def, src });
        if (typeof spec === 'string') problems.push(`${src.path}: hooks.${written}[${i}].hooks[${j}]: ${spec}`);
        else out.push(spec);
      });
    });
  }
}

interface Where {
  event: HookEvent;
  written: string;
  format: HookFormat;
  def: Record<string, unknown>;
  src: HookSource;
}

function toSpec(h: unknown, w: Where): HookSpec | string {
  if (!isObject(h)) return 'not an object';
  if (h.type !== 'command') return `type "${String(h.type)}" is not supported (only "command")`;
  if (typeof h.command !== 'string' || !h.command.trim()) return 'missing "command"';
  const t = h.timeout;
  if (t !== undefined && (typeof t !== 'number' || !(t > 0))) return '"timeout" must be a positive number';
  const timeoutMs = t === undefined ? DEFAULT_TIMEOUT_MS : w.format === 'claude' ? t * 1000 : t;
  const env = isObject(h.env)
    ? (Object.fromEntries(Object.entries(h.env).map(([k, v]) => [k, String(v)])) as Record<string, string>)
    : undefined;
  return {
    event: w.event,
    writtenEvent: w.written,
    format: w.format,
    ...(typeof w.def.matcher === 'string' ? { matcher: w.def.matcher } : {}),
    sequential: w.def.sequential === true,
    command: h.command,
    ...(typeof h.name === 'string' ? { name: h.name } : {}),
    ...(typeof h.description === 'string' ? { description: h.description } : {}),
    timeoutMs,
    ...(env ? { env } : {}),
    source: w.src.source,
    file: w.src.path,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A hook's display name: its `name`, else its command. */
export function hookName(h: Pick<HookSpec, 'name' | 'command'>): string {
  return h.name ?? h.command;
}
