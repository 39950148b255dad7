import type { Part } from '@google/genai';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import shellQuote from 'shell-quote';

/**
 * `/prompt-name arg=value …` runs an MCP prompt: the server's messages become the user message. Names
 * are the prompt's own (`/summarize`) or prefixed with its server (`/server__summarize`) when two servers
 * share one. Arguments are checked against the prompt's declaration before the server is asked; a
 * missing required argument is reported with the values the server completes for it.
 */

export interface PromptSource {
  states(): { alias: string; status: string; prompts: Prompt[] }[];
  getPrompt(alias: string, name: string, args: Record<string, string>): Promise<GetPromptResult>;
  completePromptArgument?(
    alias: string,
    prompt: string,
    arg: string,
    value: string,
    context: Record<string, string>,
  ): Promise<string[]>;
}

export type PromptExpansion = { ok: true; parts: Part[]; alias: string; name: string } | { ok: false; error: string };

export function parsePromptCommand(text: string): { name: string; words: string[] } | undefined {
  const m = /^\/([A-Za-z0-9_][A-Za-z0-9_.:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const words = m[2] ? shellQuote.parse(m[2]).filter((w): w is string => typeof w === 'string') : [];
  return { name: m[1]!, words };
}

function findPrompt(src: PromptSource, name: string): { alias: string; prompt: Prompt }[] {
  const hits: { alias: string; prompt: Prompt }[] = [];
  for (const s of src.states()) {
    if (s.status !== 'connected') continue;
    for (const p of s.prompts)
      if (p.name === name || `${s.alias}__${p.name}` === name) hits.push({ alias: s.alias, prompt: p });
  }
  return hits;
}

/** `k=v` words by name, plain words fill the declared arguments in order. */
export function bindArguments(prompt: Prompt, words: string[]): { args: Record<string, string> } | { error: string } {
  const declared = prompt.arguments ?? [];
  const args: Record<string, string> = {};
  let next = 0;
  for (const w of words) {
    const eq = w.indexOf('=');
    if (eq > 0 && declared.some((a) => a.name === w.slice(0, eq))) {
      args[w.slice(0, eq)] = w.slice(eq + 1);
      continue;
    }
    if (eq > 0)
      return {
        error: `Prompt /${prompt.name} has no argument "${w.slice(0, eq)}" (it takes: ${declared.map((a) => a.name).join(', ') || 'none'}).`,
      };
    while (next < declared.length && args[declared[next]!.name] !== undefined) next++;
    if (next >= declared.length)
      return { error: `Prompt /${prompt.name} takes no more arguments than ${declared.length}; "${w}" is extra.` };
    args[declared[next++]!.name] = w;
  }
  return { args };
}

/** The messages of a prompt as parts of one user message. */
export function promptParts(result: GetPromptResult): Part[] {
  const parts: Part[] = [];
  for (const msg of result.messages) {
    const c = msg.content as {
      type: string;
      text?: string;
      data?: string;
      mimeType?: string;
      resource?: { uri: string; text?: string };
    };
    const who = msg.role === 'assistant' ? 'assistant: ' : '';
    if (c.type === 'text') parts.push({ text: `${who}${c.text ?? ''}` });
    else if ((c.type === 'image' || c.type === 'audio') && c.data && c.mimeType)
      parts.push({ inlineData: { data: c.data, mimeType: c.mimeType } });
    else if (c.type === 'resource' && c.resource)
      parts.push({ text: `--- Resource ${c.resource.uri} ---\n${c.resource.text ?? '[binary content]'}` });
  }
  return parts;
}

export async function expandPromptCommand(src: PromptSource, text: string): Promise<PromptExpansion | undefined> {
  const cmd = parsePromptCommand(text);
  if (!cmd) return undefined;
  const hits = findPrompt(src, cmd.name);
  if (hits.length === 0) return undefined;
  if (hits.length > 1)
    return {
      ok: false,
      error: `Prompt /${cmd.name} is offered by ${hits.map((h) => h.alias).join(' and ')}; use /${hits[0]!.alias}__${cmd.name}.`,
    };
  const { alias, prompt } = hits[0]!;
  const bound = bindArguments(prompt, cmd.words);
  if ('error' in bound) return { ok: false, error: bound.error };
  for (const a of prompt.arguments ?? []) {
    if (!a.required || bound.args[a.name] !== undefined) continue;
    const values =
      (await src.completePromptArgument?.(alias, prompt.name, a.name, '', bound.args).catch(() => [])) ?? [];
    const hint = values.length ? ` Values the server suggests: ${values.slice(0, 10).join(', ')}.` : '';
    return {
      ok: false,
      error: `Prompt /${prompt.name} needs ${a.name}=…${a.description ? ` (${a.description})` : ''}.${hint}`,
    };
  }
  const result = await src.getPrompt(alias, prompt.name, bound.args);
  return { ok: true, parts: promptParts(result), alias, name: prompt.name };
}
