import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Part } from '@google/genai';
import { META } from '../../protocol/meta.js';
import type { Policy, ToolCall, ToolCallRequestInfo, ToolRef } from '../scheduler/types.js';
import { REJECTED } from '../scheduler/texts.js';
import type { CustomCommand } from './custom-commands.js';
import { type ExpandDeps, expandCommand, type Invocation, RefusedError, type ShellRun } from './expand-command.js';
import { isWithin } from '../../protocol/path-within.js';

/**
 * Runs a custom command's `@{…}` and `!{…}` through the servers: a file is read with the filesystem
 * server's `read_file` (its workspace confinement and ignore rules apply), a command runs with the
 * shell server's `run_shell_command` as a client-initiated call, so policy, the approval dialog (or
 * its headless refusal) and the sandbox are those of any shell call.
 */
export interface CommandRuntime {
  scheduler: { schedule(requests: ToolCallRequestInfo[], signal: AbortSignal): Promise<ToolCall[]> };
  registry: { list(): ToolRef[] };
  policy?: Pick<Policy, 'decide'>;
  roots: string[];
  /** Servers still starting: a tool not listed yet is looked up again once they are ready. */
  manager?: { whenReady(): Promise<void> };
}

async function toolNamed(rt: CommandRuntime, toolName: string, alias: string): Promise<ToolRef | undefined> {
  const find = () => {
    const all = rt.registry.list().filter((t) => t.toolName === toolName);
    return all.find((t) => t.serverAlias === alias) ?? all[0];
  };
  const found = find();
  if (found || !rt.manager) return found;
  await rt.manager.whenReady();
  return find();
}

async function callOnce(
  rt: CommandRuntime,
  tool: ToolRef,
  args: Record<string, unknown>,
  signal: AbortSignal,
  promptId: string,
  origin?: string,
): Promise<ToolCall> {
  const request = { callId: `cmd-${randomUUID().slice(0, 8)}`, name: tool.exposedName, args, isClientInitiated: true };
  const [call] = await rt.scheduler.schedule([{ ...request, promptId, ...(origin ? { origin } : {}) }], signal);
  return call!;
}

export interface RunOptions {
  signal: AbortSignal;
  promptId: string;
  warn(message: string): void;
  /** Every call the expansion ran (stats, cards). */
  onCall?(call: ToolCall): void;
  /** The command as its cards name it (`/review`). */
  origin?: string;
}

export function commandDeps(rt: CommandRuntime, o: RunOptions): ExpandDeps {
  return {
    warn: o.warn,
    readPath: async (path) => {
      const tool = await toolNamed(rt, 'read_file', 'filesystem');
      if (!tool) throw new Error('no read_file tool is registered (is the filesystem server running?)');
      // A relative path is looked for in each workspace directory, first match wins (Gemini CLI's order).
      const abs = isAbsolute(path)
        ? path
        : (rt.roots.map((r) => resolve(r, path)).find((p) => existsSync(p)) ?? resolve(rt.roots[0] ?? '.', path));
      if (isDirectory(abs)) return readDirectory(rt, path, abs, o);
      const call = await callOnce(rt, tool, { absolute_path: abs }, o.signal, o.promptId, o.origin);
      o.onCall?.(call);
      if (call.status === 'success') return [{ text: call.response.responseText }] as Part[];
      const error = call.response?.error ?? 'no content';
      if (/ignored by configured ignore patterns/.test(error)) return [];
      throw new Error(error);
    },
    precheckShell: async (commands) => {
      const tool = await toolNamed(rt, 'run_shell_command', 'shell');
      if (!tool || !rt.policy) return;
      for (const command of commands) {
        const v = await rt.policy.decide(tool, { args: { command } });
        if (v.decision === 'deny' && v.reason.startsWith('headless:')) {
          // Headless cannot ask: say which flag would let this command run.
          const root = command.trim().split(/\s+/)[0] ?? command;
          throw new RefusedError(
            `"${command}" needs your approval, which a headless run cannot ask for; to allow it, pass ` +
              `--allowed-tools "run_shell_command(${root})" or -y`,
          );
        }
        if (v.decision === 'deny') throw new RefusedError(`Blocked command: "${command}". Reason: ${v.message}`);
      }
    },
    runShell: async (command): Promise<ShellRun> => {
      const tool = await toolNamed(rt, 'run_shell_command', 'shell');
      if (!tool) throw new Error('no run_shell_command tool is registered (is the shell server running?)');
      const call = await callOnce(rt, tool, { command }, o.signal, o.promptId, o.origin);
      o.onCall?.(call);
      const refused = call.response?.errorType === 'policy_denied' || call.response?.errorType === REJECTED;
      if (call.status === 'cancelled' || refused)
        throw new RefusedError(`Shell command "${command}" was not approved: ${call.response?.error ?? 'refused'}`);
      if (call.status !== 'success') throw new Error(`Shell command "${command}" failed: ${call.response?.error}`);
      const outcome = call.response.meta?.[META.shellOutcome] as Partial<ShellRun> | undefined;
      if (!outcome || typeof outcome.output !== 'string') {
        // A shell server that is not ours: its text is all there is.
        return { output: call.response.responseText, exitCode: 0, signal: null, aborted: false };
      }
      return {
        output: outcome.output,
        exitCode: outcome.exitCode ?? null,
        signal: outcome.signal ?? null,
        aborted: outcome.aborted === true,
      };
    },
  };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `@{dir}`: every file below it, read with the filesystem server's `read_many_files` (its ignore rules),
 * framed as Gemini CLI frames a directory.
 */
async function readDirectory(rt: CommandRuntime, shown: string, abs: string, o: RunOptions): Promise<Part[]> {
  const tool = await toolNamed(rt, 'read_many_files', 'filesystem');
  if (!tool) throw new Error('no read_many_files tool is registered (is the filesystem server running?)');
  // The tool takes paths relative to the workspace roots; a folder outside them is refused there.
  const root = rt.roots.find((r) => isWithin(r, abs));
  const entry = root ? relative(root, abs) || '.' : abs;
  const call = await callOnce(rt, tool, { paths: [entry] }, o.signal, o.promptId, o.origin);
  o.onCall?.(call);
  if (call.status !== 'success') throw new Error(call.response?.error ?? 'no content');
  return [
    { text: `--- Start of content for directory: ${shown} ---\n` },
    { text: call.response.responseText.replace(/\n?--- End of content ---\s*$/, '\n') },
    { text: `--- End of content for directory: ${shown} ---` },
  ];
}

/** `/name rest` → the command and its invocation, or undefined when no custom command has that name. */
export function findCommand(
  text: string,
  commands: readonly CustomCommand[],
): { command: CustomCommand; invocation: Invocation } | undefined {
  const raw = text.trim();
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(raw);
  if (!m) return undefined;
  const name = m[1]!;
  const command =
    commands.find((c) => c.name === name) ?? commands.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!command) return undefined;
  return { command, invocation: { raw, args: (m[2] ?? '').trim() } };
}

export function runCustomCommand(
  rt: CommandRuntime,
  command: CustomCommand,
  invocation: Invocation,
  o: RunOptions,
): Promise<Part[]> {
  return expandCommand(command, invocation, commandDeps(rt, o));
}

/** What a typed `/name args` of a custom command became: the message for the model, or why nothing was sent. */
export type TypedCommand =
  | { ok: true; command: CustomCommand; parts: Part[] }
  | { ok: false; command: CustomCommand; message: string };

/**
 * The chat's, headless and the editor's path for a typed custom command: undefined when `text` names
 * none; a refused `!{…}` (policy or the user) or a malformed prompt sends nothing to the model.
 */
export async function expandTypedCommand(
  rt: CommandRuntime,
  commands: readonly CustomCommand[],
  text: string,
  o: RunOptions,
): Promise<TypedCommand | undefined> {
  const found = findCommand(text, commands);
  if (!found) return undefined;
  const { command } = found;
  try {
    const origin = `/${command.name}`;
    return { ok: true, command, parts: await runCustomCommand(rt, command, found.invocation, { ...o, origin }) };
  } catch (err) {
    return {
      ok: false,
      command,
      // One period between the reason and what follows, whatever the reason ended with.
      message: `/${command.name} cannot be run: ${(err as Error).message.replace(/\.+$/, '')}. Nothing was sent to the model.`,
    };
  }
}
