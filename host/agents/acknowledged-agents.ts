import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import { readConfigFile } from '../config/config-file.js';

/**
 * Project agents the user has acknowledged, in Gemini CLI 0.61's file:
 * `~/.gemini/acknowledgments/agents.json`, `{ "<project root>": { "<agent name>": "<sha256 of its file>" } }`.
 * A project agent runs only once acknowledged for exactly its current content: a cloned repository's
 * agent (a system prompt and a tool list chosen by someone else) is never offered unasked, and an edit to
 * an acknowledged one asks again.
 */
export type Acknowledgements = Record<string, Record<string, string>>;

export function acknowledgementsPath(geminiHome: string): string {
  return join(geminiHome, '.gemini', 'acknowledgments', 'agents.json');
}

/** The saved acknowledgements; a missing or unreadable file acknowledges nothing. */
export function readAcknowledgements(file: string): Acknowledgements {
  try {
    const parsed = JSON.parse(readConfigFile(file) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Acknowledgements) : {};
  } catch {
    return {};
  }
}

export function isAcknowledged(acks: Acknowledgements, project: string, name: string, hash: string): boolean {
  const forProject = acks[project];
  return !!forProject && typeof forProject === 'object' && forProject[name] === hash;
}

/** Records the agents as acknowledged for this project (one atomic rewrite of the file). */
export function acknowledge(file: string, project: string, agents: { name: string; hash: string }[]): void {
  const acks = readAcknowledgements(file);
  const forProject = { ...(acks[project] ?? {}) };
  for (const a of agents) forProject[a.name] = a.hash;
  acks[project] = forProject;
  writeFileAtomic(file, `${JSON.stringify(acks, null, 2)}\n`);
}
