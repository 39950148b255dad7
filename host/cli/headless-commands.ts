import { failed, plainText } from '../builtin-commands/output.js';
import { findBuiltin, notHere } from '../builtin-commands/registry.js';
import { builtinView } from '../core/builtin-views.js';
import type { HostRuntime } from '../core/runtime.js';
import { FatalInputError } from '../errors.js';

/**
 * `-p "/name args"` of a built-in (custom commands are expanded first, by the shared prompt preparation):
 * the built-in's view as plain text (the same structured output the chat colours); a built-in or an
 * action of one that needs the chat is an input error. Anything else (an MCP prompt, an unknown name) is
 * left to the caller.
 */
export interface HeadlessSlashContext {
  runtime: HostRuntime;
}

export async function runHeadlessSlash(text: string, ctx: HeadlessSlashContext): Promise<string | undefined> {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const typed = m[0]!.trim();
  const builtin = findBuiltin(m[1]!);
  if (!builtin) return undefined;
  if (!builtin.frontEnds.includes('headless')) throw new FatalInputError(notHere(builtin, typed));
  const args = (m[2] ?? '').trim().split(/\s+/).filter(Boolean);
  const out = await builtinView(builtin.name, args, {
    runtime: ctx.runtime,
    frontEnd: 'headless',
  });
  if (!out) throw new FatalInputError(notHere({ ...builtin, frontEnds: ['chat'] }, typed));
  const shown = plainText(out);
  if (failed(out)) throw new FatalInputError(shown.trim());
  return shown;
}
