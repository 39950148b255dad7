import { toolFor } from '../tools/builtin-catalogue.js';
import { randomUUID } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Part } from '@google/genai';
import { displayOf, findPassiveCalls, outputOf, parsePassiveArgs, resolvePassiveTool } from '../passive-call.js';
import type { ToolLookup } from '../scheduler/executor.js';
import type { ToolCall } from '../scheduler/types.js';
import type { LoopScheduler } from './loop-runtime.js';
import { findResourceRefs } from '../tools/resource-tools.js';
import { closestNames } from '../scheduler/texts.js';
import { SEPARATOR } from '../../protocol/tool-names.js';

/** The manager calls `@server:uri` needs. */
export interface ResourceReader {
  states(): { alias: string }[];
  readResource(alias: string, uri: string): Promise<{ contents: { uri?: string; text?: string }[] }>;
}

export interface AtCommandDeps {
  /** `roots`: the workspace directories a relative `@path` is looked up in. */
  runtime: { scheduler: LoopScheduler; registry: ToolLookup; manager?: ResourceReader; roots: string[] };
  signal: AbortSignal;
  promptId: string;
  onWarning?: (msg: string) => void;
}

export interface AtCommandResult {
  /** What to send the model: the text, plus the content of `@path` references. */
  parts: Part[];
  /** The user message had nothing for the model (only passive calls): do not send it. */
  skipModel: boolean;
  /** Client-initiated calls that ran (`@tool(...)` and the read for `@path`). */
  calls: ToolCall[];
  /** Text shown to the user for the passive calls. */
  display: string;
  /** Bad input (an `@tool(…)` that names no tool): shown as an error, nothing was run or sent. */
  error?: string;
}

const PATH_REF = /(^|\s)@((?:\\\s|[^\s])+)/g;
const TRAILING_PUNCT = /[,.;:!?)\]'"]+$/;
/** A glob pattern: left to the read tool, which expands it (a glob names no single path to look up). */
export const GLOB = /[*?[\]{}]/;

/** `@path` tokens (an `@` at the start or after whitespace; `\ ` escapes a space). */
export function findPathRefs(text: string): { start: number; end: number; path: string }[] {
  const refs: { start: number; end: number; path: string }[] = [];
  for (const m of text.matchAll(PATH_REF)) {
    const start = m.index! + m[1]!.length;
    const raw = m[2]!.replace(TRAILING_PUNCT, '');
    if (!raw) continue;
    refs.push({ start, end: start + 1 + raw.length, path: raw.replace(/\\(\s)/g, '$1') });
  }
  return refs;
}

/**
 * Where a `@path` leads: the path itself when absolute, else the first workspace root that has it.
 * Undefined when nothing is there (a dangling link counts as there: it is refused, not sent as text).
 */
export function locatePathRef(path: string, roots: string[]): string | undefined {
  const candidates = isAbsolute(path) ? [path] : roots.map((r) => resolve(r, path));
  return candidates.find((c) => {
    try {
      lstatSync(c);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * `@name(…)` spelled as a tool call (a `server__tool` name, or `()` / `({…})` arguments) that names no
 * tool: a typo, so the message is not sent (it would go out as a path the model cannot read). The text
 * names the closest tools.
 */
function unknownToolCalls(found: ReturnType<typeof findPassiveCalls>, registry: ToolLookup): string | undefined {
  const names = registry.list().map((t) => t.exposedName);
  const lines = found
    .filter(
      (p) =>
        (p.name.includes(SEPARATOR) || p.argText === '' || p.argText.startsWith('{')) &&
        !resolvePassiveTool(p.name, registry).ok,
    )
    .map((p) => {
      const near = closestNames(p.name, names, 3, Number.POSITIVE_INFINITY);
      return `@${p.name}(…) is not a tool${near.length ? `. Closest: ${near.join(', ')}` : ' (no tools are available)'}. Nothing was sent.`;
    });
  return lines.length ? lines.join('\n') : undefined;
}

/** The registered read-many tool, found by its tool name so no server alias is assumed. */
function readManyTool(registry: ToolLookup): string | undefined {
  return toolFor(registry.list(), 'read_many_files')?.exposedName;
}

/**
 * Expands a prompt before it is sent: `@server__tool({...})` runs a passive call (shown, not sent);
 * `@path` injects the files through the read-many tool, as Gemini CLI does.
 */
export async function processAtCommands(query: string, deps: AtCommandDeps): Promise<AtCommandResult> {
  const manager = deps.runtime.manager;
  const refs = manager
    ? findResourceRefs(
        query,
        manager.states().map((s) => s.alias),
      )
    : [];
  if (!refs.length) return expandAt(query, deps);
  // `@server:uri` reads the resource; the reference stays in the text without its `@` (not a path).
  let text = query;
  for (const r of [...refs].reverse()) text = text.slice(0, r.start) + text.slice(r.start + 1);
  const result = await expandAt(text, deps);
  for (const r of refs) {
    try {
      const body = (await manager!.readResource(r.server, r.uri)).contents
        .map((c) => c.text ?? `[binary ${c.uri ?? r.uri}]`)
        .join('\n');
      result.parts.push({
        text: `\n--- Content from resource ${r.uri} (MCP server ${r.server}) ---\n${body}\n--- End of resource ---`,
      });
    } catch (err) {
      deps.onWarning?.(`Could not read @${r.server}:${r.uri}: ${(err as Error).message}`);
    }
  }
  return result;
}

async function expandAt(query: string, deps: AtCommandDeps): Promise<AtCommandResult> {
  const { scheduler, registry } = deps.runtime;
  const calls: ToolCall[] = [];
  const display: string[] = [];
  let text = query;

  const unknown = unknownToolCalls(findPassiveCalls(text), registry);
  if (unknown) return { parts: [], skipModel: true, calls, display: '', error: unknown };
  const passive = findPassiveCalls(text).filter((p) => resolvePassiveTool(p.name, registry).ok);
  for (const p of passive) {
    const tool = resolvePassiveTool(p.name, registry);
    if (!tool.ok) continue;
    const args = parsePassiveArgs(p.argText, tool.value);
    if (!args.ok) {
      display.push(args.error);
      continue;
    }
    const [call] = await scheduler.schedule(
      [
        {
          callId: `passive-${randomUUID()}`,
          name: tool.value.exposedName,
          args: args.value,
          isClientInitiated: true,
          promptId: deps.promptId,
        },
      ],
      deps.signal,
    );
    calls.push(call!);
    // Headless and the transcript want the content itself, not the one-line summary.
    display.push(call!.status === 'success' ? (outputOf(call!) ?? displayOf(call!)) : displayOf(call!));
  }
  for (const p of [...passive].reverse()) text = text.slice(0, p.start) + text.slice(p.end);

  const refs = readableRefs(text, deps);
  if (!refs.length) {
    const rest = text.trim();
    return {
      parts: rest ? [{ text: passive.length ? rest : query }] : [],
      skipModel: !rest,
      calls,
      display: display.join('\n'),
    };
  }
  const tool = readManyTool(registry);
  if (!tool) {
    deps.onWarning?.('@path references were sent as plain text: no read_many_files tool is registered.');
    return { parts: [{ text }], skipModel: false, calls, display: display.join('\n') };
  }
  const paths = [...new Set(refs.map((r) => r.path))];
  const [call] = await scheduler.schedule(
    [{ callId: `at-${randomUUID()}`, name: tool, args: { paths }, isClientInitiated: true, promptId: deps.promptId }],
    deps.signal,
  );
  calls.push(call!);
  return { parts: [{ text }, ...readParts(call!, paths, deps)], skipModel: false, calls, display: display.join('\n') };
}

/**
 * The `@path` references that name something in the workspace (or a glob, which the read tool expands).
 * The rest (`@alice`, `@types/node`, a diff's `@@`) are words, not files: they stay in the text as typed,
 * with one warning, instead of failing the prompt.
 */
function readableRefs(text: string, deps: AtCommandDeps): ReturnType<typeof findPathRefs> {
  const refs = findPathRefs(text);
  const found = refs.filter((r) => GLOB.test(r.path) || locatePathRef(r.path, deps.runtime.roots) !== undefined);
  const words = [...new Set(refs.filter((r) => !found.includes(r)).map((r) => `@${r.path}`))];
  if (words.length) deps.onWarning?.(`Sent as text, not a file in the workspace: ${words.join(', ')}`);
  return found;
}

/**
 * What the read for `@path` adds to the message: the files' text, then any images and PDFs as inline
 * data with their MIME types, as the model gets them when it calls the read tool itself.
 */
function readParts(call: ToolCall, paths: string[], deps: AtCommandDeps): Part[] {
  if (call.status !== 'success') {
    deps.onWarning?.(`Could not read ${paths.map((p) => `@${p}`).join(', ')}: ${call.response?.error ?? 'no content'}`);
    return [];
  }
  const content = call.response.responseText;
  const body = content.includes('--- End of content ---') ? content : `${content}\n--- End of content ---`;
  const media = call.response.responseParts.filter((p) => p.inlineData);
  return [{ text: `\n--- Content from referenced files ---\n${body}` }, ...media];
}
