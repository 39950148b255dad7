/**
 * Gemini CLI 0.61's spellings of our tools' arguments, turned into ours, so a call recorded from Gemini
 * CLI (or written by a model that learned its names) runs here. The catalogue's rows use these.
 */
type Args = Record<string, unknown>;

/** Renames `from` to `to` when only `from` is given. */
export function rename(a: Args, from: string, to: string): Args {
  if (!(from in a) || to in a) return a;
  const { [from]: v, ...rest } = a;
  return { ...rest, [to]: v };
}

/** Gemini CLI's `file_filtering_options` object, flattened into our top-level flags. */
export function flattenFiltering(a: Args): Args {
  const { file_filtering_options: f, ...rest } = a;
  return f && typeof f === 'object' ? { ...(f as Args), ...rest } : rest;
}

/** `dir_path` → `path`, made absolute. */
export function dirArgs(a: Args, abs: (p: unknown) => unknown): Args {
  const r = rename(a, 'dir_path', 'path');
  return 'path' in r ? { ...r, path: abs(r.path) } : r;
}

/** A 1-based inclusive `start_line`/`end_line` window as our 0-based `offset` and `limit`. */
export function lineWindow(a: Args): Args {
  const { start_line: s, end_line: e, ...rest } = a;
  const out: Args = { ...rest };
  if (typeof s === 'number' && out.offset === undefined) out.offset = Math.max(0, s - 1);
  if (typeof e === 'number' && out.limit === undefined)
    out.limit = Math.max(1, e - (typeof s === 'number' ? s : 1) + 1);
  return out;
}
