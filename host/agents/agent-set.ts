import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Acknowledgements, isAcknowledged } from './acknowledged-agents.js';
import type { AgentDefinition } from './agent-definition.js';
import { type AgentDir, loadAgentsFrom } from './agent-files.js';
import { codebaseInvestigator } from './builtin-agents.js';

/**
 * The subagents of one session, found as Gemini CLI 0.61 finds them: the built-ins, then the project's
 * (`.gemini/agents`, and Claude Code's `.claude/agents`) only when the folder is trusted and each agent is
 * acknowledged for its current content, then the user's (`~/.gemini/agents`, `~/.claude/agents`), then
 * enabled extensions' (`agents/`). The
 * first definition of a name wins, as in 0.61, and a later one is reported as a duplicate: a project file
 * can never replace a built-in, and one that takes the name of the user's own agent wins over it only
 * once acknowledged, with the user's reported at start.
 */
export interface AgentSet {
  /** The agents offered to the model. */
  agents: AgentDefinition[];
  /** Project agents found but not yet acknowledged (not offered until they are). */
  unacknowledged: AgentDefinition[];
  /** Agents turned off in settings (`agents.overrides.<name>.enabled: false`). */
  disabled: AgentDefinition[];
  /** Files that did not load and duplicate names: shown at start. */
  errors: string[];
}

export interface AgentSetOptions {
  cwd: string;
  /** The folder holding `.gemini` (GEMINI_CLI_HOME or the home folder). */
  home: string;
  trusted: boolean;
  acknowledgements: Acknowledgements;
  /** Merged settings: `experimental.enableAgents`, `agents.overrides`. */
  settings: Record<string, unknown>;
  /** Enabled extensions: their `agents/*.md` come last. */
  extensions?: { name: string; path: string }[];
}

/** The project's agent folders (also what the untrusted-folder notice names when they exist). */
export function projectAgentDirs(cwd: string): AgentDir[] {
  const project = resolve(cwd);
  return [
    { path: join(project, '.gemini', 'agents'), source: 'project', format: 'gemini' },
    { path: join(project, '.claude', 'agents'), source: 'project', format: 'claude' },
  ];
}

export function userAgentDirs(home: string): AgentDir[] {
  const h = resolve(home);
  return [
    { path: join(h, '.gemini', 'agents'), source: 'user', format: 'gemini' },
    { path: join(h, '.claude', 'agents'), source: 'user', format: 'claude' },
  ];
}

/** Project agent folders that exist: an untrusted folder's notice says they were skipped. */
export function existingProjectAgentDirs(cwd: string): string[] {
  return projectAgentDirs(cwd)
    .map((d) => d.path)
    .filter((p) => existsSync(p));
}

interface Override {
  enabled?: unknown;
  runConfig?: { maxTurns?: unknown; maxTimeMinutes?: unknown };
}

function overrideOf(settings: Record<string, unknown>, name: string): Override | undefined {
  const overrides = (settings.agents as { overrides?: Record<string, Override> } | undefined)?.overrides;
  const o = overrides && Object.hasOwn(overrides, name) ? overrides[name] : undefined;
  return o && typeof o === 'object' ? o : undefined;
}

/** Settings' `runConfig` limits for the agent, when they are positive whole numbers. */
function withOverrides(def: AgentDefinition, o: Override | undefined): AgentDefinition {
  const turns = o?.runConfig?.maxTurns;
  const minutes = o?.runConfig?.maxTimeMinutes;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;
  return {
    ...def,
    ...(ok(turns) ? { maxTurns: turns } : {}),
    ...(ok(minutes) ? { timeoutMinutes: minutes } : {}),
  };
}

export function loadAgentSet(o: AgentSetOptions): AgentSet {
  const set: AgentSet = { agents: [], unacknowledged: [], disabled: [], errors: [] };
  const experimental = o.settings.experimental as { enableAgents?: unknown } | undefined;
  if (experimental?.enableAgents === false) return set;
  const project = resolve(o.cwd);
  // Run in the home folder, the project's folders are the user's: not read twice.
  const projectDirs = o.trusted && project !== resolve(o.home) ? projectAgentDirs(project) : [];
  const found: AgentDefinition[] = [codebaseInvestigator()];
  const extensionDirs = (o.extensions ?? []).map(
    (e): AgentDir => ({ path: join(e.path, 'agents'), source: 'extension', format: 'gemini', confine: e.path }),
  );
  for (const dir of [...projectDirs, ...userAgentDirs(o.home), ...extensionDirs]) {
    const loaded = loadAgentsFrom(dir);
    set.errors.push(...loaded.errors.map((e) => `Agent loading error: ${e}`));
    for (const a of loaded.agents) {
      if (a.source === 'project' && !isAcknowledged(o.acknowledgements, project, a.name, a.hash ?? '')) {
        set.unacknowledged.push(a);
        continue;
      }
      found.push(a);
    }
  }
  const seen = new Set<string>();
  for (const def of found) {
    if (seen.has(def.name)) {
      set.errors.push(
        `Duplicate agent name '${def.name}' detected. The later definition will be ignored. Rename one of the agents to avoid this conflict.`,
      );
      continue;
    }
    seen.add(def.name);
    const override = overrideOf(o.settings, def.name);
    if (override?.enabled === false) set.disabled.push(def);
    else set.agents.push(withOverrides(def, override));
  }
  return set;
}

/**
 * What the user is told at start: files that did not load, and project agents waiting to be acknowledged
 * (they are not offered until the user enables them in the chat).
 */
export function agentNotices(set: AgentSet): string[] {
  const pending = set.unacknowledged.map((a) => a.name);
  if (!pending.length) return set.errors;
  return [
    ...set.errors,
    `New agents were found in this project and are not enabled until you acknowledge them: ${pending.join(', ')}. In the chat, /agents lists them and /agents acknowledge enables them.`,
  ];
}
