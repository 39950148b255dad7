import { loadCommandFiles } from '../custom-commands/custom-commands.js';
import { Enablement } from './enablement.js';
import { type LoadedExtension, userScopeFolder } from './loader.js';
import { extensionsDir } from './paths.js';
import { loadSkillsFrom, type Skill } from '../skills/skills.js';
import { safeBlock } from '../safe-text.js';
import { commandDirs, skillDirs } from './contributions.js';

/** What the detailed listing adds for one extension, as Gemini CLI's `extensions list` shows it. */
export interface ExtensionDetails {
  enabledForUser: boolean;
  enabledForWorkspace: boolean;
  skills: Skill[];
  commands: string[];
}

/** Enablement per scope (the home folder; this folder) and the skills and commands the extension brings. */
export function extensionDetails(
  exts: LoadedExtension[],
  o: { cwd: string; env?: NodeJS.ProcessEnv; homeDir?: string },
): Map<string, ExtensionDetails> {
  const env = o.env ?? process.env;
  const enablement = new Enablement(extensionsDir(env, o.homeDir));
  const user = userScopeFolder(env, o.homeDir);
  const out = new Map<string, ExtensionDetails>();
  for (const e of exts) {
    // Each extension's own folders, as if it were the only one and enabled.
    const one = { cwd: o.cwd, home: user, trusted: false, extensions: [{ ...e, enabled: true }] };
    const skills = skillDirs(one)
      .filter((d) => d.extension === e.name)
      .flatMap((d) => loadSkillsFrom(d));
    const commands = loadCommandFiles(commandDirs(one).filter((d) => d.extension === e.name)).commands.map(
      (c) => `/${c.name}`,
    );
    out.set(e.name, {
      enabledForUser: enablement.isEnabled(e.name, user),
      enabledForWorkspace: enablement.isEnabled(e.name, o.cwd),
      skills,
      commands,
    });
  }
  return out;
}

/**
 * The text of `/extensions` and `gemini-mcp extensions list`/`-l` (plain; the chat colours nothing here).
 * With details: Gemini CLI's fields (path, source, enablement per scope, context files, servers, excluded
 * tools, agent skills, settings), and the custom commands the extension adds.
 */
export function formatExtensions(
  exts: LoadedExtension[],
  detail = false,
  details?: Map<string, ExtensionDetails>,
): string {
  if (exts.length === 0) return 'No extensions installed.\n';
  const out: string[] = [];
  for (const e of exts) {
    out.push(`${e.enabled ? '✓' : '✗'} ${e.name} (${e.version})${e.enabled ? '' : ' [disabled]'}`);
    if (!detail) continue;
    out.push(` Path: ${e.path}`);
    if (e.installMetadata) {
      out.push(` Source: ${e.installMetadata.source} (Type: ${e.installMetadata.type})`);
      if (e.installMetadata.ref) out.push(` Ref: ${e.installMetadata.ref}`);
    }
    const more = details?.get(e.name);
    if (more) out.push(` Enabled (User): ${more.enabledForUser}`, ` Enabled (Workspace): ${more.enabledForWorkspace}`);
    if (e.contextFiles.length) out.push(' Context files:', ...e.contextFiles.map((f) => `  ${f}`));
    const servers = Object.keys(e.mcpServers);
    if (servers.length) out.push(' MCP servers:', ...servers.map((s) => `  ${s}`));
    if (e.excludeTools.length) out.push(' Excluded tools:', ...e.excludeTools.map((t) => `  ${t}`));
    if (more?.skills.length) out.push(' Agent skills:', ...more.skills.map((k) => `  ${k.name}: ${k.description}`));
    if (more?.commands.length) out.push(' Commands:', ...more.commands.map((c) => `  ${c}`));
    const settings = e.manifest.settings ?? [];
    if (settings.length)
      out.push(
        ' Settings:',
        ...settings.map((s) => {
          const v = e.settingsEnv[s.envVar];
          return `  ${s.name} (${s.envVar}): ${v === undefined ? '[not set]' : s.sensitive ? '[set]' : v}`;
        }),
      );
    out.push('');
  }
  // Versions, sources, paths and names come from extensions' own files.
  return safeBlock(`${out.join('\n').trimEnd()}\n`);
}

export function formatSkills(skills: Skill[]): string {
  if (skills.length === 0) return 'No agent skills found.\n';
  return safeBlock(
    `${skills.map((s) => `${s.name}${s.extension ? ` [${s.extension}]` : ''}: ${s.description}\n  ${s.location}`).join('\n')}\n`,
  );
}
