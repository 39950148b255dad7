import type { Skill } from '../skills/skills.js';
import type { LoadedExtension } from '../config/extensions/loader.js';
import { safeBlock } from '../safe-text.js';

/** The text of `/extensions` and `gemini-mcp extensions list`/`-l` (plain; the chat colours nothing here). */
export function formatExtensions(exts: LoadedExtension[], detail = false): string {
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
    if (e.contextFiles.length) out.push(' Context files:', ...e.contextFiles.map((f) => `  ${f}`));
    const servers = Object.keys(e.mcpServers);
    if (servers.length) out.push(' MCP servers:', ...servers.map((s) => `  ${s}`));
    if (e.excludeTools.length) out.push(' Excluded tools:', ...e.excludeTools.map((t) => `  ${t}`));
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
