import { type HookEvent, type HookSpec, hookName } from './hook-config.js';
import { type HookRun, runHook } from './hook-runner.js';
import { tryUserPattern, type UserPattern } from '../user-pattern.js';
import { readOutput, type HookOutput } from './hook-output.js';
import type { HookMessage } from './hook-message.js';

/** Names a tool goes by for matchers and payloads: Gemini CLI's, Claude Code's and ours. */
export interface HookToolNames {
  gemini: string;
  claude: string;
  exposed: string;
}

/** What firing an event decided, merged over every hook that ran (Gemini CLI's OR rules: a block wins). */
export interface HookOutcome {
  /** A hook blocked (decision deny/block, or exit code ≥ 2): the reasons, joined. */
  blocked?: string;
  /** A hook asked for the user's confirmation (decision ask). */
  ask?: boolean;
  /** The reasons hooks gave with their ask, joined. */
  askReason?: string;
  /** A Claude Code hook allowed explicitly (permissionDecision allow). */
  allowed?: boolean;
  /** A hook stopped the whole agent loop (`continue: false`): its reason. */
  stopped?: string;
  /** additionalContext, joined. */
  context?: string;
  /** A rewritten input (BeforeTool's `tool_input` / Claude's `updatedInput`). */
  updatedInput?: Record<string, unknown>;
  clearContext?: boolean;
  /** AfterTool's `tailToolCallRequest` (the last hook's that asked for one). */
  tail?: { name: string; args: Record<string, unknown> };
  /** Every hook's parsed JSON output, in order (model events read their own fields). */
  outputs: Record<string, unknown>[];
  /** Hooks that ran. */
  ran: string[];
}

export interface HookSystemOptions {
  hooks: readonly HookSpec[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Shown to the person: failures, timeouts, systemMessages. */
  notify: (message: HookMessage) => void;
}

/**
 * Fires hook events: picks the hooks of the event whose matcher fits, runs them (in parallel, or in order
 * when any asks for `sequential`), and merges what they said. A hook that fails, times out or cannot start
 * is reported through `notify` and treated as having said nothing; it never stops the session.
 */
export class HookSystem {
  /** The session the payloads name; set once the session (and its transcript file) exists. */
  session: { id: string; transcriptPath: string; plansDir?: string } = { id: '', transcriptPath: '' };

  constructor(private readonly opts: HookSystemOptions) {}

  /** The folder hooks run in (payloads' `cwd`). */
  get cwd(): string {
    return this.opts.cwd;
  }

  list(): readonly HookSpec[] {
    return this.opts.hooks;
  }

  has(event: HookEvent): boolean {
    return this.opts.hooks.some((h) => h.event === event);
  }

  async fire(
    event: HookEvent,
    fields: Record<string, unknown>,
    target: { tool?: HookToolNames; trigger?: string } = {},
    signal?: AbortSignal,
  ): Promise<HookOutcome> {
    const specs = dedupe(this.opts.hooks.filter((h) => h.event === event && matches(h, target)));
    const outcome: HookOutcome = { outputs: [], ran: [] };
    if (!specs.length) return outcome;
    const sequential = specs.some((h) => h.sequential);
    let input = fields;
    const results: { spec: HookSpec; out: HookOutput }[] = [];
    const runOne = async (spec: HookSpec, f: Record<string, unknown>) => {
      const run = await runHook(spec, this.payload(spec, event, f, target), {
        cwd: this.opts.cwd,
        sessionId: this.session.id,
        plansDir: this.session.plansDir,
        env: this.opts.env,
        signal,
      });
      const out = readOutput(spec, run);
      this.report(spec, run, out);
      return { spec, out };
    };
    if (sequential) {
      for (const spec of specs) {
        const r = await runOne(spec, input);
        results.push(r);
        // Later hooks of a sequence see the input as the earlier ones rewrote it.
        if (r.out.updatedInput && 'tool_input' in input) input = { ...input, tool_input: r.out.updatedInput };
      }
    } else {
      results.push(...(await Promise.all(specs.map((s) => runOne(s, input)))));
    }
    return merge(results);
  }

  private payload(spec: HookSpec, event: HookEvent, fields: Record<string, unknown>, target: { tool?: HookToolNames }) {
    const base = {
      session_id: this.session.id,
      transcript_path: this.session.transcriptPath,
      cwd: this.opts.cwd,
      hook_event_name: spec.writtenEvent,
      timestamp: new Date().toISOString(),
    };
    const extra: Record<string, unknown> = {};
    if (target.tool) extra.tool_name = spec.format === 'claude' ? target.tool.claude : target.tool.gemini;
    if (spec.format === 'claude' && event === 'AfterAgent') extra.stop_hook_active = fields.stop_hook_active ?? false;
    return { ...base, ...fields, ...extra };
  }

  /** Failures and messages are shown, never swallowed. */
  private report(spec: HookSpec, run: HookRun, out: HookOutput): void {
    const name = hookName(spec);
    const who = `Hook "${name}" (${spec.source}, ${spec.writtenEvent})`;
    const say = (kind: HookMessage['kind'], text: string) =>
      this.opts.notify({ kind, hookName: name, eventName: spec.writtenEvent, text });
    if (run.timedOut) say('warning', `${who} timed out after ${spec.timeoutMs} ms and was stopped.`);
    else if (run.error) say('warning', `${who} could not run: ${run.error}`);
    else if (out.failure) say('warning', `${who} failed: ${out.failure}`);
    if (out.systemMessage) say('system', out.systemMessage);
  }
}

/** Compiled matchers (RE2: a matcher from a settings file cannot stall a call); null: not a pattern RE2 runs. */
const matchers = new Map<string, UserPattern | null>();
function matcherPattern(source: string): UserPattern | undefined {
  if (!matchers.has(source)) matchers.set(source, tryUserPattern(source) ?? null);
  return matchers.get(source) ?? undefined;
}

function matches(h: HookSpec, target: { tool?: HookToolNames; trigger?: string }): boolean {
  const m = h.matcher?.trim();
  if (!m || m === '*') return true;
  if (target.tool) {
    const names = [h.format === 'claude' ? target.tool.claude : target.tool.gemini, target.tool.exposed];
    // Gemini CLI tests its matcher as an unanchored regular expression; Claude Code's names a whole tool.
    const re = matcherPattern(h.format === 'claude' ? `^(?:${m})$` : m);
    return re ? names.some((n) => re.test(n)) : names.includes(m);
  }
  if (target.trigger !== undefined) return m === target.trigger;
  return true;
}

/** The same hook (name and command) configured twice runs once. */
function dedupe(specs: HookSpec[]): HookSpec[] {
  const seen = new Set<string>();
  return specs.filter((s) => {
    const key = `${s.name ?? ''}:${s.command}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function merge(results: { spec: HookSpec; out: HookOutput }[]): HookOutcome {
  const o: HookOutcome = { outputs: [], ran: [] };
  const blocks: string[] = [];
  const stops: string[] = [];
  const contexts: string[] = [];
  const askReasons: string[] = [];
  for (const { spec, out } of results) {
    o.ran.push(hookName(spec));
    if (out.json) o.outputs.push(out.json);
    if (out.block !== undefined) blocks.push(out.block);
    if (out.stop !== undefined) stops.push(out.stop);
    if (out.ask) o.ask = true;
    if (out.askReason) askReasons.push(out.askReason);
    if (out.allow) o.allowed = true;
    if (out.context) contexts.push(out.context);
    if (out.clearContext) o.clearContext = true;
    if (out.tail) o.tail = out.tail;
    if (out.updatedInput) o.updatedInput = { ...o.updatedInput, ...out.updatedInput };
  }
  if (blocks.length) o.blocked = blocks.join('\n');
  if (stops.length) o.stopped = stops.join('\n');
  if (contexts.length) o.context = contexts.join('\n');
  if (askReasons.length) o.askReason = askReasons.join('\n');
  if (o.blocked !== undefined) o.allowed = undefined;
  return o;
}
