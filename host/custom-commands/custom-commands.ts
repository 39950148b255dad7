import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import * as z from 'zod/mini';
import { readConfigFile } from '../config/config-file.js';
import { leadsOutside } from '../config/inside-folder.js';
import { splitFrontMatter } from '../skills/front-matter.js';
import { safeText } from '../safe-text.js';

/**
 * Custom slash commands from files, in Gemini CLI's folders and format: `.toml` files with `prompt`
 * (required) and `description` under `~/.gemini/commands/`, `<project>/.gemini/commands/` and each
 * enabled extension's `commands/`; a subfolder is a namespace (`git/commit.toml` → `/git:commit`).
 * Claude Code's Markdown commands (`~/.claude/commands/`, `<project>/.claude/commands/`, `$ARGUMENTS`,
 * front matter `description`) load too.
 */

export type CommandSource = 'user' | 'workspace' | 'extension';

export interface CustomCommand {
  /** The name it is invoked by, after conflicts were resolved (`/user.x`, `/ext:x`). */
  name: string;
  /** The name from its file path (`git:commit`). */
  baseName: string;
  description: string;
  prompt: string;
  source: CommandSource;
  extension?: string;
  file: string;
  /** `toml`: Gemini CLI expansion; `markdown`: Claude Code's (`$ARGUMENTS`). */
  format: 'toml' | 'markdown';
}

export interface CommandDir {
  path: string;
  source: CommandSource;
  extension?: string;
  format: 'toml' | 'markdown';
  /** The folder its files must really be in (an extension's): a file or folder linked from outside is skipped. */
  confine?: string;
}

export interface CommandSet {
  commands: CustomCommand[];
  /** Files that did not load: path and reason. */
  errors: string[];
}

const TomlCommand = z.object({
  prompt: z.string({
    error: (i) => (i.input === undefined ? "The 'prompt' field is required." : "The 'prompt' field must be a string."),
  }),
  description: z.optional(z.string()),
});

interface Walk {
  ext: string;
  confine?: string;
  errors: string[];
  seen: Set<string>;
}

/**
 * Files under `dir` ending in `ext`, depth-first, sorted; symlinked folders are followed once. Under
 * `confine`, a file or folder that really lies outside it is skipped and reported, never walked: an
 * extension's `commands/x -> /` would otherwise walk the whole disk, and a linked file would be sent
 * to the model as a prompt.
 */
function filesUnder(dir: string, w: Walk): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of entries) {
    const p = join(dir, name);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (!st.isDirectory() && !(st.isFile() && name.endsWith(w.ext))) continue;
    const outside = w.confine ? leadsOutside(w.confine, p) : undefined;
    if (outside) {
      w.errors.push(
        `Skipping command ${st.isDirectory() ? 'folder' : 'file'} ${p}: it leads outside the extension, to ${outside}`,
      );
      continue;
    }
    if (st.isDirectory()) {
      const key = `${st.dev}:${st.ino}`;
      if (w.seen.has(key)) continue;
      w.seen.add(key);
      out.push(...filesUnder(p, w));
    } else out.push(p);
  }
  return out;
}

/** `git/commit.toml` → `git:commit`; characters outside [A-Za-z0-9_.-] become `_`, as in Gemini CLI. */
export function commandNameOf(base: string, file: string, ext: string): string {
  const rel = relative(base, file).slice(0, -ext.length);
  return rel
    .split(sep)
    .map((seg) => {
      const s = seg.replace(/[^a-zA-Z0-9_\-.]/g, '_');
      return s.length > 50 ? `${s.slice(0, 47)}...` : s;
    })
    .join(':');
}

function oneLine(s: string, max = 100): string {
  // A description is shown in /help and completion: control characters made visible (host/safe-text.ts).
  const t = safeText(s.replace(/[\r\n\t]+/g, ' ').trim());
  return t.length > max ? `${t.slice(0, max - 3)}...` : t;
}

function readCommand(dir: CommandDir, file: string): CustomCommand {
  // The one safe reader: a command file swapped for a FIFO, a device or a huge file is refused, not waited on.
  const text = readConfigFile(file);
  if (text === undefined) throw new Error('the file is gone');
  const ext = dir.format === 'toml' ? '.toml' : '.md';
  const baseName = commandNameOf(dir.path, file, ext);
  let prompt: string;
  let description: string | undefined;
  if (dir.format === 'toml') {
    let raw: unknown;
    try {
      raw = parseToml(text);
    } catch (err) {
      throw new Error(`Failed to parse TOML: ${(err as Error).message.split('\n')[0]}`);
    }
    const parsed = TomlCommand.safeParse(raw);
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
    prompt = parsed.data.prompt;
    description = parsed.data.description;
  } else {
    const fm = splitFrontMatter(text);
    prompt = fm.body.trim();
    const d = fm.data?.description;
    description = typeof d === 'string' ? d : undefined;
  }
  let desc = oneLine(description || `Custom command from ${file.split(sep).pop()}`);
  if (dir.extension) desc = `[${dir.extension}] ${desc}`;
  return {
    name: baseName,
    baseName,
    description: desc,
    prompt,
    source: dir.source,
    extension: dir.extension,
    file,
    format: dir.format,
  };
}

/** Loads every command file of `dirs` (in order: user, workspace, extensions); bad files are reported. */
export function loadCommandFiles(dirs: CommandDir[], builtins: Iterable<string> = []): CommandSet {
  const loaded: CustomCommand[] = [];
  const errors: string[] = [];
  for (const dir of dirs) {
    const walk = {
      ext: dir.format === 'toml' ? '.toml' : '.md',
      confine: dir.confine,
      errors,
      seen: new Set<string>(),
    };
    for (const file of filesUnder(dir.path, walk)) {
      try {
        loaded.push(readCommand(dir, file));
      } catch (err) {
        errors.push(`Skipping invalid command file ${file}: ${(err as Error).message}`);
      }
    }
  }
  return { commands: resolveConflicts(loaded, new Set(builtins)), errors };
}

const prefixOf = (c: CustomCommand): string =>
  c.source === 'extension' ? `${c.extension}:` : c.source === 'user' ? 'user.' : 'workspace.';

/**
 * Gemini CLI's rule for clashing names: a built-in keeps its name; otherwise every clashing command is
 * renamed with its source (`user.x`, `workspace.x`, `<extension>:x`), a number added if still taken.
 */
export function resolveConflicts(commands: CustomCommand[], builtins: ReadonlySet<string>): CustomCommand[] {
  const byName = new Map<string, CustomCommand>();
  const firstSeen = new Set<string>([...builtins]);
  const unique = (base: string): string => {
    let n = base;
    for (let i = 1; byName.has(n) || builtins.has(n); i++) n = `${base}${i}`;
    return n;
  };
  for (const cmd of commands) {
    const name = cmd.baseName;
    if (!firstSeen.has(name)) {
      firstSeen.add(name);
      byName.set(name, { ...cmd });
      continue;
    }
    const owner = byName.get(name);
    if (owner) {
      byName.delete(name);
      const renamed = unique(prefixOf(owner) + name);
      byName.set(renamed, { ...owner, name: renamed });
    }
    const renamed = unique(prefixOf(cmd) + name);
    byName.set(renamed, { ...cmd, name: renamed });
  }
  return [...byName.values()];
}
