import type { Part } from '@google/genai';
import shellQuote from 'shell-quote';
import type { CustomCommand } from './custom-commands.js';
import { findInjections } from './injections.js';
import { substituteShellArgs } from './shell-args.js';

/**
 * Turns a custom command invocation into the user message, exactly as Gemini CLI does for `.toml`
 * commands:
 * 1. `@{path}` is replaced by the file's content (read through the filesystem server);
 * 2. `!{command}` runs through the shell server (policy and approval as for any shell call), `{{args}}`
 *    inside it one inert shell word whatever quotes surround it (shell-args.ts); its output replaces it, with a note when the command failed;
 *    `{{args}}` elsewhere is the raw argument text;
 * 3. without `{{args}}` anywhere, the whole invocation (`/name args`) is appended after a blank line
 *    when arguments were given.
 * Better than Gemini CLI: text that came from an `@{file}` is not scanned for `!{…}` or `{{args}}`, so
 * a file cannot make the command run shell code.
 * Claude Code Markdown commands substitute `$ARGUMENTS` (and `$1`…`$9`), else get `ARGUMENTS: …`.
 */

export interface ShellRun {
  output: string;
  exitCode: number | null;
  signal: number | null;
  aborted: boolean;
}

export interface ExpandDeps {
  /** The file's content as parts; throws with the reason when it cannot be read. */
  readPath(path: string): Promise<Part[]>;
  /** Runs one command; throws RefusedError when policy or the user refused it. */
  runShell(command: string): Promise<ShellRun>;
  /** Called before any command runs with every command: throws RefusedError when policy denies one. */
  precheckShell?(commands: string[]): Promise<void>;
  warn(message: string): void;
}

export class RefusedError extends Error {}

export interface Invocation {
  /** The whole typed line, trimmed (`/git:commit fix typo`). */
  raw: string;
  /** What follows the command name, trimmed. */
  args: string;
}

const ARGS = '{{args}}';

/** A text part that came from the command's own prompt (scanned) or from a file (left as is). */
type Piece = { text: string; own: true } | { part: Part; own: false };

export async function expandCommand(cmd: CustomCommand, inv: Invocation, deps: ExpandDeps): Promise<Part[]> {
  if (cmd.format === 'markdown') return [{ text: expandMarkdown(cmd.prompt, inv.args) }];
  const prompt = cmd.prompt;
  let pieces: Piece[] = [{ text: prompt, own: true }];
  if (prompt.includes('@{')) pieces = await injectFiles(prompt, cmd.name, deps);
  const usesArgs = prompt.includes(ARGS);
  if (usesArgs || prompt.includes('!{')) pieces = await injectShell(pieces, cmd.name, inv.args, deps);
  let parts: Part[] = pieces.map((p) => (p.own ? { text: p.text } : p.part));
  if (!usesArgs && inv.args) parts = appendToLast(parts, inv.raw);
  return parts;
}

async function injectFiles(prompt: string, name: string, deps: ExpandDeps): Promise<Piece[]> {
  const out: Piece[] = [];
  let last = 0;
  for (const inj of findInjections(prompt, '@{', name)) {
    if (inj.start > last) out.push({ text: prompt.slice(last, inj.start), own: true });
    try {
      const parts = await deps.readPath(inj.content);
      if (parts.length === 0)
        deps.warn(
          `File '@{${inj.content}}' was ignored by .gitignore or .geminiignore and was not included in the prompt.`,
        );
      for (const part of parts) out.push({ part, own: false });
    } catch (err) {
      // As in Gemini CLI: the placeholder stays and the user is told why.
      deps.warn(`Failed to inject content for '@{${inj.content}}': ${(err as Error).message}`);
      out.push({ text: prompt.slice(inj.start, inj.end), own: true });
    }
    last = inj.end;
  }
  if (last < prompt.length) out.push({ text: prompt.slice(last), own: true });
  return out;
}

async function injectShell(pieces: Piece[], name: string, args: string, deps: ExpandDeps): Promise<Piece[]> {
  const planned = pieces.map((p) => {
    if (!p.own) return { piece: p, injections: [] };
    const injections = p.text.includes('!{') ? findInjections(p.text, '!{', name) : [];
    return {
      piece: p,
      injections: injections.map((i) => ({
        ...i,
        command: i.content ? substituteShellArgs(i.content, args, name) : '',
      })),
    };
  });
  const commands = planned.flatMap((p) => p.injections.map((i) => i.command)).filter(Boolean);
  if (commands.length) await deps.precheckShell?.(commands);
  const out: Piece[] = [];
  for (const { piece, injections } of planned) {
    if (!piece.own) {
      out.push(piece);
      continue;
    }
    let text = '';
    let last = 0;
    for (const inj of injections) {
      text += piece.text.slice(last, inj.start).replaceAll(ARGS, args);
      if (inj.command) {
        const r = await deps.runShell(inj.command);
        text += r.output;
        if (r.aborted) text += `\n[Shell command '${inj.command}' aborted]`;
        else if (r.exitCode !== 0 && r.exitCode !== null)
          text += `\n[Shell command '${inj.command}' exited with code ${r.exitCode}]`;
        else if (r.signal !== null) text += `\n[Shell command '${inj.command}' terminated by signal ${r.signal}]`;
      }
      last = inj.end;
    }
    text += piece.text.slice(last).replaceAll(ARGS, args);
    out.push({ text, own: true });
  }
  return out;
}

function appendToLast(parts: Part[], text: string): Part[] {
  if (parts.length === 0) return [{ text }];
  const last = parts[parts.length - 1]!;
  if (typeof last.text === 'string') return [...parts.slice(0, -1), { ...last, text: `${last.text}\n\n${text}` }];
  return [...parts, { text: `\n\n${text}` }];
}

function expandMarkdown(prompt: string, args: string): string {
  const words = args ? (shellQuote.parse(args).filter((w) => typeof w === 'string') as string[]) : [];
  let used = false;
  const out = prompt
    .replace(/\$ARGUMENTS\b/g, () => {
      used = true;
      return args;
    })
    .replace(/\$([1-9])\b/g, (_w, n: string) => {
      used = true;
      return words[Number(n) - 1] ?? '';
    });
  return used || !args ? out : `${out}\n\nARGUMENTS: ${args}`;
}
