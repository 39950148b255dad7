import { load } from 'js-yaml';

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?$/;

/**
 * `---` YAML front matter and the body after it (SKILL.md, Claude Code commands). A description with
 * a bare colon is not valid YAML but is common in such files: the simple `key: value` reading that
 * Gemini CLI falls back to takes over then.
 */
export function splitFrontMatter(text: string): { data?: Record<string, unknown>; body: string } {
  const m = FRONT_MATTER.exec(text);
  if (!m) return { body: text };
  const body = m[2] ?? '';
  try {
    const data = load(m[1]!);
    if (data && typeof data === 'object' && !Array.isArray(data))
      return { data: data as Record<string, unknown>, body };
  } catch {
    // read below
  }
  return { data: simpleKeys(m[1]!), body };
}

/** The front matter's YAML text and the body, with no parsing: for readers that must reject bad YAML. */
export function frontMatterBlock(text: string): { yaml: string; body: string } | undefined {
  const m = FRONT_MATTER.exec(text);
  return m ? { yaml: m[1]!, body: m[2] ?? '' } : undefined;
}

function simpleKeys(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const kv = /^\s*([A-Za-z_][\w-]*):\s*(.*)$/.exec(lines[i]!);
    if (!kv) continue;
    const parts = [kv[2]!.trim()];
    while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1]!)) parts.push(lines[++i]!.trim());
    out[kv[1]!] = parts.filter(Boolean).join(' ');
  }
  return out;
}
