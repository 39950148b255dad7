import { isAbsolute } from 'node:path';
import { relativeWithin } from '../../protocol/path-within.js';

/**
 * The pieces of a call's one-line title, as Gemini CLI 0.61 writes them (editors show the title next to
 * the call and in the permission request): paths relative to the workspace and shortened to 35 characters,
 * edit snippets cut at 30. The titles themselves are per tool, in the built-in catalogue.
 */

const MAX_PATH = 35;

/** `p` relative to `root` (`.` for the root itself); a path outside it, or not a string, stays as given. */
export function relativeTo(root: string, p: unknown): string {
  if (typeof p !== 'string' || p === '') return '';
  if (!isAbsolute(p)) return p;
  const r = relativeWithin(root, p);
  return r === undefined ? p : r || '.';
}

/**
 * A long path cut in the middle: its first folder, `...`, then as many trailing parts as fit, so the file
 * name always shows; a lone name too long for that keeps its two ends.
 */
export function shortenPath(p: string, max = MAX_PATH): string {
  if (p.length <= max) return p;
  const lead = p.startsWith('/') ? '/' : '';
  const parts = p.slice(lead.length).split('/').filter(Boolean);
  const last = parts.at(-1) ?? p;
  if (parts.length > 1) {
    let tail = last;
    for (let i = parts.length - 2; i > 0; i--) {
      const longer = `${parts[i]}/${tail}`;
      if (`${lead}${parts[0]}/.../${longer}`.length > max) break;
      tail = longer;
    }
    const withHead = `${lead}${parts[0]}/.../${tail}`;
    if (withHead.length <= max) return withHead;
    if (`.../${last}`.length <= max) return `.../${last}`;
  }
  const keep = Math.floor((max - 3) / 2);
  return `${last.slice(0, keep)}...${last.slice(-keep)}`;
}

/** The first line of an edit's text, cut at 30 characters (`...` when anything was cut). */
export function snippet(s: unknown): string {
  const text = typeof s === 'string' ? s : '';
  return text.split('\n')[0]!.slice(0, 30) + (text.length > 30 ? '...' : '');
}

/** A prompt or query cut at 100 characters, as 0.61 cuts web_fetch's prompt. */
export function clipPrompt(s: unknown): string {
  const text = typeof s === 'string' ? s : '';
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

/** A title of a call from its arguments; `rel` makes a path argument relative to the workspace. */
export type TitleOf = (args: Record<string, unknown>, rel: (p: unknown) => string) => string;

/** grep_search's title: `'pattern' in include within dir`. */
export const grepTitle: TitleOf = (a, rel) => {
  const within = typeof a.path === 'string' && rel(a.path) !== '.' ? shortenPath(rel(a.path)) : './';
  return `'${a.pattern ?? ''}'${a.include ? ` in ${a.include}` : ''} within ${within}`;
};

/** replace's title: what changes into what, or `Create` for an edit of nothing into a new file. */
export const editTitle: TitleOf = (a, rel) => {
  const file = shortenPath(rel(a.file_path));
  if (a.old_string === '') return `Create ${file}`;
  if (a.old_string === a.new_string) return `No file changes to ${file}`;
  return `${file}: ${snippet(a.old_string)} => ${snippet(a.new_string)}`;
};
