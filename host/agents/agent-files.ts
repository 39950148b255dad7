import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import * as z from 'zod/mini';
import { readConfigFile } from '../config/config-file.js';
import { leadsOutside } from '../config/inside-folder.js';
import { frontMatterBlock, splitFrontMatter } from '../skills/front-matter.js';
import {
  type AgentDefinition,
  type AgentSource,
  DEFAULT_MAX_TIME_MINUTES,
  DEFAULT_MAX_TURNS,
} from './agent-definition.js';

/**
 * Agent definition files: `*.md` in `~/.gemini/agents` and a project's `.gemini/agents` (Gemini CLI 0.61's
 * front matter, checked as strictly as it checks it: an unknown key rejects the file, so a typo never
 * yields an agent that does something else), and Claude Code's `.claude/agents/*.md` (name, description,
 * `tools` as a comma list, `model`; its other keys, such as `color`, are ignored as Claude Code ignores
 * what it does not use). A file named `_*.md` is skipped, as in Gemini CLI.
 */
export type AgentFileFormat = 'gemini' | 'claude';

export interface AgentDir {
  path: string;
  source: AgentSource;
  format: AgentFileFormat;
  /** The folder a file must really be in (an extension's): one linked from outside it is not read. */
  confine?: string;
}

export interface LoadedAgents {
  agents: AgentDefinition[];
  /** One line per file that did not load: `Failed to load agent from <file>: <why>`. */
  errors: string[];
}

const slug = () => z.string().check(z.regex(/^[a-z0-9-_]+$/, 'Name must be a valid slug'));
const positiveInt = () => z.number().check(z.int(), z.positive());

const GeminiAgentFile = z.strictObject({
  kind: z.optional(z.literal('local')),
  name: slug(),
  description: z.string().check(z.minLength(1)),
  display_name: z.optional(z.string()),
  tools: z.optional(z.array(z.string())),
  model: z.optional(z.string()),
  temperature: z.optional(z.number()),
  max_turns: z.optional(positiveInt()),
  timeout_mins: z.optional(positiveInt()),
});

class AgentFileError extends Error {}

function geminiAgent(text: string): Omit<AgentDefinition, 'source'> {
  const block = frontMatterBlock(text);
  if (!block)
    throw new AgentFileError(
      'Invalid agent definition: Missing mandatory YAML frontmatter. Agent Markdown files MUST start with YAML frontmatter enclosed in triple-dashes "---" (e.g., ---\nname: my-agent\n---).',
    );
  let raw: unknown;
  try {
    raw = load(block.yaml);
  } catch (err) {
    throw new AgentFileError(`YAML frontmatter parsing failed: ${(err as Error).message}`);
  }
  const kind = (raw as { kind?: unknown } | null)?.kind;
  // Remote (A2A) agents and agent-scoped MCP servers are Gemini CLI features this host does not run.
  if (kind === 'remote' || Array.isArray(raw)) throw new AgentFileError('remote agents are not supported');
  const parsed = GeminiAgentFile.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
    throw new AgentFileError(`Validation failed: Agent Definition:\n${[...new Set(issues)].join('\n')}`);
  }
  const f = parsed.data;
  return {
    name: f.name,
    displayName: f.display_name,
    description: f.description,
    systemPrompt: block.body.trim(),
    query: '${query}',
    inputName: 'query',
    model: f.model || 'inherit',
    temperature: f.temperature ?? 1,
    tools: f.tools,
    maxTurns: f.max_turns ?? DEFAULT_MAX_TURNS,
    timeoutMinutes: f.timeout_mins ?? DEFAULT_MAX_TIME_MINUTES,
  };
}

/** Claude Code's agent file; its model names (sonnet, opus, haiku) mean nothing here: the session's model. */
function claudeAgent(text: string): Omit<AgentDefinition, 'source'> {
  const { data, body } = splitFrontMatter(text);
  const name = data?.name;
  const description = data?.description;
  if (typeof name !== 'string' || !/^[a-z0-9-_]+$/.test(name))
    throw new AgentFileError('Validation failed: name: Name must be a valid slug');
  if (typeof description !== 'string' || !description)
    throw new AgentFileError('Validation failed: description: a description is required');
  const tools = data?.tools;
  const model = typeof data?.model === 'string' && /^gemini-/.test(data.model) ? data.model : 'inherit';
  return {
    name,
    description,
    systemPrompt: body.trim(),
    query: '${query}',
    inputName: 'query',
    model,
    tools:
      typeof tools === 'string'
        ? tools
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean)
        : Array.isArray(tools)
          ? tools.map(String)
          : undefined,
    maxTurns: DEFAULT_MAX_TURNS,
    timeoutMinutes: DEFAULT_MAX_TIME_MINUTES,
  };
}

export function readAgentFile(file: string, dir: AgentDir): AgentDefinition {
  const outside = dir.confine && leadsOutside(dir.confine, file);
  if (outside) throw new AgentFileError(`it leads outside its extension (to ${outside})`);
  // The one safe reader: an agent file that is a FIFO, a device or huge is refused, never waited on.
  const text = readConfigFile(file);
  if (text === undefined) throw new AgentFileError('the file is gone');
  const def = dir.format === 'gemini' ? geminiAgent(text) : claudeAgent(text);
  return { ...def, source: dir.source, file, hash: createHash('sha256').update(text).digest('hex') };
}

/** Every `*.md` of one folder (a missing folder has none); each bad file is one error line. */
export function loadAgentsFrom(dir: AgentDir): LoadedAgents {
  const out: LoadedAgents = { agents: [], errors: [] };
  let names: string[];
  try {
    names = readdirSync(dir.path).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      out.errors.push(`Failed to load agent from ${dir.path}: Could not list directory: ${code}`);
    return out;
  }
  for (const n of names) {
    if (!n.endsWith('.md') || n.startsWith('_')) continue;
    const file = join(dir.path, n);
    try {
      out.agents.push(readAgentFile(file, dir));
    } catch (err) {
      // A sub-folder named *.md is not an agent file; anything else is reported.
      if ((err as Error).message.includes('it is a directory')) continue;
      out.errors.push(`Failed to load agent from ${file}: ${(err as Error).message}`);
    }
  }
  return out;
}
