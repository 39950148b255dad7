import type { HookSpec } from './hook-config.js';
import type { HookRun } from './hook-runner.js';

/** What one hook said, in either format, read into one shape. */
export interface HookOutput {
  json?: Record<string, unknown>;
  block?: string;
  stop?: string;
  ask?: boolean;
  /** What the hook told the person with its ask (its systemMessage, else its reason). */
  askReason?: string;
  allow?: boolean;
  context?: string;
  updatedInput?: Record<string, unknown>;
  clearContext?: boolean;
  /** AfterTool's `tailToolCallRequest`: a call to make next, whose response replaces the original's. */
  tail?: { name: string; args: Record<string, unknown> };
  systemMessage?: string;
  /** Why the hook counts as failed (non-zero exit that is not a block, unreadable output). */
  failure?: string;
}

/** Events where Claude Code feeds a hook's plain stdout to the model as context. */
const CLAUDE_STDOUT_CONTEXT = new Set(['UserPromptSubmit', 'SessionStart']);

export function readOutput(spec: HookSpec, run: HookRun): HookOutput {
  if (run.timedOut || run.error) return {};
  return spec.format === 'claude' ? readClaude(spec, run) : readGemini(run);
}

/**
 * Gemini CLI 0.61: stdout (or, when empty, stderr) is JSON, else plain text — a message at exit 0, a
 * warning at exit 1, a block at any other code. Any exit code ≥ 2 blocks, whatever the output says, with
 * the hook's reason, else its stderr, else its stdout as the reason (Gemini CLI lets an exit 2 without
 * output pass; a block that gives no reason should still block).
 */
function readGemini(run: HookRun): HookOutput {
  const text = run.stdout.trim() || run.stderr.trim();
  const code = run.exitCode ?? 1;
  const json = parseJson(text);
  const out: HookOutput = json ? fromJson(json) : {};
  if (json) out.json = json;
  else if (text && code === 0) out.systemMessage = text;
  else if (text && code === 1) out.systemMessage = `Warning: ${text}`;
  if (code >= 2) {
    out.block ??=
      (typeof json?.reason === 'string' && json.reason) ||
      run.stderr.trim() ||
      run.stdout.trim() ||
      `hook exited with code ${code}`;
  }
  // 2 is the deliberate block and 1 a warning; any other code (127: not found) is a broken hook: it blocks
  // like Gemini CLI's, and is shown as a failure too.
  if (code > 2) out.failure = `exit code ${code}${run.stderr.trim() ? `: ${run.stderr.trim()}` : ''}`;
  return out;
}

function fromJson(j: Record<string, unknown>): HookOutput {
  const out: HookOutput = {};
  const specific = isObject(j.hookSpecificOutput) ? j.hookSpecificOutput : {};
  const reason = str(j.stopReason) || str(j.reason) || 'No reason provided';
  if (j.continue === false) out.stop = str(j.stopReason) || str(j.reason) || 'No reason provided';
  if (j.decision === 'deny' || j.decision === 'block') out.block = reason;
  if (j.decision === 'ask') {
    out.ask = true;
    const why = str(j.systemMessage) || str(j.reason);
    if (why) out.askReason = why;
  }
  // Escaped where it is wrapped for the model (hookContext), as every hook's context is.
  const ctx = specific.additionalContext;
  if (typeof ctx === 'string') out.context = ctx;
  if (isObject(specific.tool_input)) out.updatedInput = specific.tool_input;
  if (specific.clearContext === true) out.clearContext = true;
  const tail = specific.tailToolCallRequest;
  if (isObject(tail) && typeof tail.name === 'string' && tail.name)
    out.tail = { name: tail.name, args: isObject(tail.args) ? tail.args : {} };
  if (str(j.systemMessage)) out.systemMessage = str(j.systemMessage);
  return out;
}

/**
 * Claude Code: exit 0 with JSON (`decision` block/approve, `hookSpecificOutput.permissionDecision`
 * allow/deny/ask with `permissionDecisionReason`, `updatedInput`, `additionalContext`); exit 2 blocks with
 * stderr as the reason; any other code is a failure shown to the user and the call goes on.
 */
function readClaude(spec: HookSpec, run: HookRun): HookOutput {
  const code = run.exitCode ?? 1;
  if (code === 2) return { block: run.stderr.trim() || run.stdout.trim() || 'blocked by hook (exit code 2)' };
  if (code !== 0) return { failure: `exit code ${code}${run.stderr.trim() ? `: ${run.stderr.trim()}` : ''}` };
  const json = parseJson(run.stdout.trim());
  if (!json) {
    const text = run.stdout.trim();
    return text && CLAUDE_STDOUT_CONTEXT.has(spec.writtenEvent) ? { context: text } : {};
  }
  const out: HookOutput = { json };
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const reason = str(specific.permissionDecisionReason) || str(json.reason) || 'No reason provided';
  if (json.continue === false) out.stop = str(json.stopReason) || 'Stopped by hook';
  const decision = specific.permissionDecision ?? json.decision;
  if (decision === 'deny' || decision === 'block') out.block = reason;
  else if (decision === 'ask') {
    out.ask = true;
    const why = str(specific.permissionDecisionReason) || str(json.systemMessage);
    if (why) out.askReason = why;
  } else if (decision === 'allow' || decision === 'approve') out.allow = true;
  if (typeof specific.additionalContext === 'string') out.context = specific.additionalContext;
  if (isObject(specific.updatedInput)) out.updatedInput = specific.updatedInput;
  if (str(json.systemMessage)) out.systemMessage = str(json.systemMessage);
  return out;
}

/** JSON output, also when a hook printed it as a JSON string (Gemini CLI accepts both). */
function parseJson(text: string): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    let v: unknown = JSON.parse(text);
    if (typeof v === 'string') v = JSON.parse(v);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
