import { lstatSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import type { Skill } from '../skills/skills.js';
import { hostToolEntry, type RegisteredTool } from './registered-tool.js';

/**
 * `activate_skill`, a host tool (like search_tools), not a server's: which skills exist is host
 * configuration (the user's and project's folders by folder trust, enabled extensions, precedence),
 * the host already lists them in the system instruction, and activating one only reads a SKILL.md the
 * host found and widens the workspace to its folder, which only the host can do for every server
 * (roots). A server would need all of that passed in and could not change the roots.
 * Result format as Gemini CLI's: the body in `<activated_skill>` with the folder's files.
 */
export const ACTIVATE_SKILL = 'activate_skill';

export function activateSkillEntry(skills: Skill[]): RegisteredTool {
  const names = skills.map((s) => s.name);
  const hint = names.length ? ` (Available: ${names.map((n) => `'${n}'`).join(', ')})` : '';
  const schema = {
    type: 'object',
    properties: {
      name: names.length
        ? { type: 'string', enum: names, description: 'The name of the skill to activate.' }
        : { type: 'string', description: 'No skills are currently available.' },
    },
    required: ['name'],
  };
  return hostToolEntry(
    ACTIVATE_SKILL,
    'Activate Skill',
    `Activates a specialized agent skill by name${hint}. Returns the skill's instructions wrapped in \`<activated_skill>\` tags. These provide specialized guidance for the current task. Use this when you identify a task that matches a skill's description. ONLY use names exactly as they appear in the \`<available_skills>\` section.`,
    schema,
  );
}

/**
 * The skill folder's files, one per line, directories first level deep (a short, bounded listing). A link
 * is listed by its name and never followed: a skill folder holding a link to the home folder must not
 * list the home folder to the model.
 */
export function folderListing(dir: string, max = 200): string {
  const lines: string[] = [`${dir}/`];
  const walk = (d: string, indent: string, depth: number): void => {
    let entries: string[];
    try {
      entries = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const e of entries) {
      if (lines.length >= max) return;
      if (e === 'node_modules' || e === '.git') continue;
      const p = join(d, e);
      const isDir = (() => {
        try {
          return lstatSync(p).isDirectory();
        } catch {
          return false;
        }
      })();
      lines.push(`${indent}${e}${isDir ? '/' : ''}`);
      if (isDir && depth < 3) walk(p, `${indent}  `, depth + 1);
    }
  };
  walk(dir, '  ', 0);
  return lines.join('\n');
}

export async function activateSkill(
  skills: Skill[],
  args: Record<string, unknown>,
  addRoot: (dir: string) => Promise<void>,
): Promise<CallToolResult> {
  const wanted = String(args.name ?? '');
  const skill = skills.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
  if (!skill) {
    const text = `Error: Skill "${wanted}" not found. Available skills are: ${skills.map((s) => s.name).join(', ')}`;
    return { isError: true, content: [{ type: 'text', text }] };
  }
  const dir = dirname(skill.location);
  await addRoot(dir).catch(() => undefined);
  const listing = folderListing(dir);
  // The model reads the body; the user's card says what happened and what the skill brought, as 0.61's
  // does (in plain text: cards are not markdown).
  const display = `Skill ${skill.name} activated. Resources loaded from ${dir}:\n\n${listing}`;
  return {
    content: [
      {
        type: 'text',
        text: `<activated_skill name="${skill.name}">\n  <instructions>\n    ${skill.body}\n  </instructions>\n\n  <available_resources>\n    ${listing}\n  </available_resources>\n</activated_skill>`,
      },
    ],
    _meta: { [META.display]: display },
  };
}
