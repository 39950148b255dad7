import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { refusedContextFileNamesNotice } from '../../protocol/context-file-name.js';
import { BUILTIN_COMMAND_NAMES } from '../builtin-commands/registry.js';
import { type CommandSet, loadCommandFiles } from '../custom-commands/custom-commands.js';
import type { LoadedExtension } from '../extensions/loader.js';
import { geminiHome } from '../config/paths.js';
import { builtinReplacementNotice } from '../config/server-names.js';
import { refusedContextFileNames } from '../config/context-file-setting.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import { systemSettingsPath, workspaceSettingsPath } from '../config/settings-files.js';
import type { Settings } from '../config/settings-schema.js';
import type { LoadedSettings } from '../load-settings.js';
import { untrustedNotice } from '../config/trust.js';
import { commandDirs, extensionContext, skillDirs } from '../extensions/contributions.js';
import { type HookSource, hookSwitches, loadHooks } from '../hooks/hook-config.js';
import type { HookMessage } from '../hooks/hook-message.js';
import { HookSystem } from '../hooks/hook-system.js';
import type { McpClientManager } from '../mcp/client-manager.js';
import type { PolicyEngine } from '../policy/policy-engine.js';
import { type LoadedPolicies, loadPolicyFiles } from '../policy/policy-files.js';
import { policySources } from '../policy/policy-sources.js';
import type { ApprovalMode } from '../scheduler/types.js';
import { disabledSkillNames, loadSkills, type Skill } from '../skills/skills.js';
import { disabledIn, skillScopeFiles } from '../skills/skill-toggle.js';
import { activateSkill, activateSkillEntry } from '../tools/activate-skill.js';
import { type TopicState, updateTopic, updateTopicEntry } from '../tools/update-topic.js';
import type { ToolRegistry } from '../tools/registry.js';
import { writeTodos, writeTodosEntry } from '../tools/write-todos.js';
import type { HostRuntimeOptions } from './runtime.js';
import { acknowledge, acknowledgementsPath, readAcknowledgements } from '../agents/acknowledged-agents.js';
import { type AgentSet, existingProjectAgentDirs, loadAgentSet } from '../agents/agent-set.js';
import { agentToggleFeedback, currentOverrides, disableAgent, enableAgent } from '../agents/agent-toggle.js';

/**
 * What a run loads from the user's configuration besides its servers: hook and policy files (settings,
 * extensions, `--policy`), custom commands and skills, and the notices about what did not load or was
 * skipped in an untrusted folder. createHostRuntime (runtime.ts) wires them in.
 */

/** Extensions, their context, custom commands and skills: what HostRuntime carries for the chat and ACP. */
export interface Contributions {
  extensions: LoadedExtension[];
  extensionContext: string;
  commands: CommandSet;
  skills: Skill[];
  /**
   * Reads the skill folders and `skills.disabled` again (`/skills reload`, after enable or disable): the
   * same `skills` array is updated in place and `activate_skill` declared anew from the next request.
   */
  reloadSkills(): Skill[];
  /** Subagents (invoke_agent), those awaiting acknowledgement, and the files that did not load. */
  agents: AgentSet;
  /** Reads the agent folders again (`/agents reload`): `agents` is updated in place. */
  reloadAgents(): AgentSet;
  /** Acknowledges the project agents awaiting it, for their current content, and reloads. */
  acknowledgeAgents(): AgentSet;
  /** `/agents enable|disable NAME`: edits settings as Gemini CLI does, reloads, and says what it did. */
  toggleAgent(action: 'enable' | 'disable', name: string): { ok: boolean; text: string };
}

/** What the user is told at start (headless: stderr; the chat: its first lines). */
export function startupNotices(
  settings: LoadedSettings,
  servers: readonly ResolvedServerConfig[],
  policy: PolicyEngine,
  problems: { hooks: string[]; policies: string[]; commands: string[]; agents: string[] },
  cwd: string,
): string[] {
  return [
    ...configProblems(problems.hooks, problems.policies),
    untrustedNotice(settings.trust, skippedConfig(settings, refusedModeNotice(policy.startRefused), cwd)),
    builtinReplacementNotice([...servers]),
    contextFileNamesNotice(settings.merged),
    ...settings.notices,
    // Extensions and command files that did not load, each with its path and reason.
    ...settings.extensions.errors,
    ...problems.commands,
    ...problems.agents,
  ].filter((n): n is string => !!n);
}

/** The start-up notice for context file names that are paths, which are never read. */
function contextFileNamesNotice(settings: Settings): string | undefined {
  const refused = refusedContextFileNames(settings);
  return refused.length ? refusedContextFileNamesNotice(refused) : undefined;
}

/** The untrusted-folder notice's line for a starting mode policy refused (the flag's, else the settings'). */
function refusedModeNotice(refused: ApprovalMode | undefined): string[] {
  return refused ? [`approval mode ${refused} (this run stays in default)`] : [];
}

/** What an untrusted folder's configuration would have set and did not: settings, mode, hooks, policy files. */
function skippedConfig(settings: LoadedSettings, modeSkipped: string[], cwd: string): string[] {
  const out = [...settings.skipped, ...modeSkipped];
  if (settings.trust.trusted) return out;
  const workspace = loadHooks(
    [{ path: workspaceSettingsPath(cwd), source: 'project' }],
    hookSwitches(settings.merged as Record<string, unknown>),
  ).hooks;
  if (workspace.length) {
    // The settings filter names the dropped `hooks` key; say how many hooks it held.
    const at = out.indexOf('hooks');
    out.splice(at < 0 ? out.length : at, at < 0 ? 0 : 1, `hooks (${workspace.length})`);
  }
  const policies = join(cwd, '.gemini', 'policies');
  if (existsSync(policies)) out.push(`policy files in ${policies}`);
  for (const dir of existingProjectAgentDirs(cwd)) out.push(`agents in ${dir}`);
  return out;
}

/** Hook and policy files that did not (wholly) load: shown at start, each with its file and line. */
function configProblems(hooks: string[], policies: string[]): string[] {
  return [
    ...hooks.map((p) => `Hook configuration problem (the rest loaded): ${p}`),
    ...policies.map((p) => `Policy file problem (other files loaded): ${p}`),
  ];
}

/** Hooks of the user and system settings, of the workspace settings in a trusted folder only, and of enabled extensions. */
export function hooksFor(
  settings: LoadedSettings,
  cwd: string,
  notify: (m: HookMessage) => void,
): { system: HookSystem; problems: string[] } {
  const sources: HookSource[] = settings.files
    .filter((f) => f.scope !== 'workspace' || settings.trust.trusted)
    .map((f) => ({ path: f.path, source: f.scope === 'workspace' ? 'project' : f.scope }));
  const extensions = enabledExtensions(settings).map(
    (e): HookSource => ({ path: e.path, folder: true, source: `extension:${e.name}` }),
  );
  const loaded = loadHooks([...sources, ...extensions], hookSwitches(settings.merged as Record<string, unknown>));
  const system = new HookSystem({ hooks: loaded.hooks, cwd, env: settings.env, notify });
  return { system, problems: loaded.problems };
}

/**
 * The policy files in force: the standard folders, settings `policyPaths` / `adminPolicyPaths`,
 * `--admin-policy` files (admin tier), `--policy` files (user tier) and enabled extensions' `policies/`.
 */
export function policiesFor(
  opts: Pick<HostRuntimeOptions, 'homeDir' | 'policyFiles' | 'adminPolicyFiles'>,
  settings: LoadedSettings,
  cwd: string,
): LoadedPolicies {
  const env = settings.env;
  const { sources, notices } = policySources({
    home: geminiHome(env, opts.homeDir),
    cwd,
    trusted: settings.trust.trusted,
    systemSettingsPath: systemSettingsPath(env),
    flagPaths: opts.policyFiles,
    adminFlagPaths: opts.adminPolicyFiles,
    policyPaths: settings.merged.policyPaths,
    adminPolicyPaths: settings.merged.adminPolicyPaths,
    extensions: enabledExtensions(settings),
  });
  const loaded = loadPolicyFiles(sources);
  return { ...loaded, problems: [...notices, ...loaded.problems] };
}

/** Extensions enabled for this folder: their `hooks/hooks.json` and `policies/` apply, as in Gemini CLI. */
function enabledExtensions(settings: LoadedSettings): LoadedExtension[] {
  return settings.extensions.extensions.filter((e) => e.enabled);
}

/** Custom commands and skills for this folder; skills bring the activate_skill host tool. */
export function loadContributions(
  settings: LoadedSettings,
  cwd: string,
  home: string,
  registry: ToolRegistry,
  manager: McpClientManager,
  roots: string[],
): Contributions {
  // An activated skill's folder joins the workspace (its scripts and references become readable).
  const addRoot = async (dir: string): Promise<void> => {
    if (roots.includes(dir)) return;
    roots.push(dir);
    await manager.setRoots(roots);
  };
  const where = { cwd, home, trusted: settings.trust.trusted, extensions: settings.extensions.extensions };
  const commands = loadCommandFiles(commandDirs(where), BUILTIN_COMMAND_NAMES);
  const disabled = disabledSkillNames(settings.merged);
  const skills = loadSkills(skillDirs(where)).filter((s) => !disabled.has(s.name));
  // Gemini CLI's update_topic: a note of the session's chapter, offered in every session as in 0.61.
  const topic: TopicState = {};
  registry.addHostTool(updateTopicEntry(), async (args) => updateTopic(topic, args));
  // Gemini CLI's write_todos: the session's task list, which the chat, headless output and editors show.
  registry.addHostTool(writeTodosEntry(), async (args) => writeTodos(args));
  const offer = () => registry.addHostTool(activateSkillEntry(skills), (args) => activateSkill(skills, args, addRoot));
  if (skills.length) offer();
  const reloadSkills = (): Skill[] => {
    const files = skillScopeFiles(cwd, settings.env).filter((f) => f.scope === 'user' || settings.trust.trusted);
    const off = new Set(files.flatMap((f) => disabledIn(f.path)));
    skills.splice(0, skills.length, ...loadSkills(skillDirs(where)).filter((s) => !off.has(s.name)));
    offer();
    return skills;
  };
  const extensions = settings.extensions.extensions;
  return {
    extensions,
    extensionContext: extensionContext(extensions),
    commands,
    skills,
    reloadSkills,
    ...agentsOf(settings, cwd, home),
  };
}

/** The session's agents, and how `/agents` reloads, acknowledges and toggles them (one object, updated in place). */
function agentsOf(
  settings: LoadedSettings,
  cwd: string,
  home: string,
): Pick<Contributions, 'agents' | 'reloadAgents' | 'acknowledgeAgents' | 'toggleAgent'> {
  const ackFile = acknowledgementsPath(home);
  // The settings files an override may come from now: an untrusted workspace's never applies.
  const files = skillScopeFiles(cwd, settings.env).filter((f) => f.scope === 'user' || settings.trust.trusted);
  const load = () =>
    loadAgentSet({
      cwd,
      home,
      trusted: settings.trust.trusted,
      acknowledgements: readAcknowledgements(ackFile),
      settings: currentOverrides(settings.merged as Record<string, unknown>, files),
      extensions: enabledExtensions(settings),
    });
  const agents = load();
  const reloadAgents = () => Object.assign(agents, load());
  const acknowledgeAgents = () => {
    const pending = agents.unacknowledged.map((a) => ({ name: a.name, hash: a.hash ?? '' }));
    if (pending.length) acknowledge(ackFile, resolve(cwd), pending);
    return reloadAgents();
  };
  const toggleAgent = (action: 'enable' | 'disable', name: string) => {
    const offered = agents.agents.some((a) => a.name === name);
    const off = agents.disabled.some((a) => a.name === name);
    if (!offered && !off) return { ok: false, text: `Agent '${name}' not found.` };
    if (action === 'enable' && !off) return { ok: true, text: `Agent '${name}' is already enabled.` };
    if (action === 'disable' && off) return { ok: true, text: `Agent '${name}' is already disabled.` };
    const user = files.find((f) => f.scope === 'user')!;
    const project = files.find((f) => f.scope === 'workspace');
    const r = action === 'enable' ? enableAgent(name, files) : disableAgent(name, project ?? user, project && user);
    reloadAgents();
    return { ok: true, text: agentToggleFeedback(r) };
  };
  return { agents, reloadAgents, acknowledgeAgents, toggleAgent };
}
