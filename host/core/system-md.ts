import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readConfigFile } from '../config/config-file.js';
import { writeFileAtomic } from '../atomic-file.js';
import { FatalConfigError } from '../errors.js';

/**
 * Gemini CLI's system prompt override, `GEMINI_SYSTEM_MD`: `1`/`true` replaces the core prompt with
 * `.gemini/system.md` of the folder the program runs in, any other value names the file (`~/` is the
 * home), `0`/`false` or unset keeps the built-in prompt. The file is read at the session's start; one
 * that is missing stops the start, as in Gemini CLI ("missing system prompt file").
 */
export function systemMdPath(env: NodeJS.ProcessEnv, cwd: string, name = 'GEMINI_SYSTEM_MD'): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const lower = value.toLowerCase();
  if (lower === '0' || lower === 'false') return undefined;
  if (lower === '1' || lower === 'true') return resolve(cwd, '.gemini', 'system.md');
  const home = value === '~' || value.startsWith('~/') ? join(homedir(), value.slice(1)) : value;
  return resolve(cwd, home);
}

/**
 * Where `GEMINI_WRITE_SYSTEM_MD` asks for the core prompt in use to be written, read the same way (`1`/`true`:
 * `.gemini/system.md`), so that it can be edited and then used with `GEMINI_SYSTEM_MD`. Never the file the
 * override is read from (`readFrom`): Gemini CLI writes it back with its variables filled in, which loses
 * them; here it is left as the user wrote it.
 */
export function writeSystemMdPath(env: NodeJS.ProcessEnv, cwd: string, readFrom?: string): string | undefined {
  const file = systemMdPath(env, cwd, 'GEMINI_WRITE_SYSTEM_MD');
  return file === readFrom ? undefined : file;
}

/** The override's text, when `GEMINI_SYSTEM_MD` asks for one; read as configuration (a regular file, capped). */
export function readSystemMd(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const file = systemMdPath(env, cwd);
  if (!file) return undefined;
  const text = readConfigFile(file);
  if (text === undefined) throw new FatalConfigError(`missing system prompt file '${file}' (GEMINI_SYSTEM_MD)`);
  return text;
}

export interface SystemMdValues {
  /** The skills listing, as the built-in prompt gives it. */
  skills: string;
  /** The subagents listing, as the built-in prompt gives it. */
  subAgents: string;
  /** The tools offered: exposed name, and the name Gemini CLI gives it (`read_file`). */
  tools: { name: string; geminiName: string }[];
}

/**
 * Gemini CLI 0.61's variables in an override: `${AgentSkills}`, `${SubAgents}`, `${AvailableTools}` (one
 * `- name` line each) and `${<tool>_ToolName}` for each tool, by Gemini CLI's name or ours, which becomes
 * the name the model calls here. So a system.md written for Gemini CLI names our tools rightly.
 */
export function substituteSystemMd(text: string, values: SystemMdValues): string {
  const tools = values.tools.length
    ? values.tools.map((t) => `- ${t.name}`).join('\n')
    : 'No tools are currently available.';
  const byVariable = new Map<string, string>();
  for (const t of values.tools) {
    byVariable.set(`${t.geminiName}_ToolName`, t.name);
    byVariable.set(`${t.name}_ToolName`, t.name);
  }
  return text
    .replace(/\$\{AgentSkills\}/g, () => values.skills)
    .replace(/\$\{SubAgents\}/g, () => values.subAgents)
    .replace(/\$\{AvailableTools\}/g, () => tools)
    .replace(/\$\{([\w.:-]+_ToolName)\}/g, (whole, variable: string) => byVariable.get(variable) ?? whole);
}

/**
 * GEMINI_WRITE_SYSTEM_MD's writer: the core prompt in use, written to `file` when it differs from what it
 * last wrote. Ours lists skills and subagents after the core; written out (`withListings`), they become
 * Gemini CLI's variables, so the file used as GEMINI_SYSTEM_MD still lists them.
 */
export function corePromptWriter(
  file: string,
  log?: (message: string) => void,
): (core: string, withListings: boolean) => void {
  let written: string | undefined;
  return (core, withListings) => {
    const text = withListings ? `${core}\n\n\${AgentSkills}\n\n\${SubAgents}` : core;
    if (text === written) return;
    written = text;
    try {
      writeFileAtomic(file, text, { dirMode: 0o700 });
    } catch (err) {
      log?.(`GEMINI_WRITE_SYSTEM_MD: could not write ${file}: ${(err as Error).message}`);
    }
  };
}
