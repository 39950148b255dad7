import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import { MANIFEST_FILE } from './paths.js';

/** `extensions new <path> [template]`: a folder with a manifest named after it, plus the template's files. */
export function newExtension(path: string, template: string | undefined, cwd: string): string {
  const dir = resolve(cwd, path);
  if (existsSync(dir)) throw new Error(`Path already exists: ${dir}`);
  const name = dir
    .split(/[\\/]/)
    .pop()!
    .replace(/[^A-Za-z0-9-]/g, '-');
  const manifest: Record<string, unknown> = { name, version: '1.0.0' };
  const files: Record<string, string> = {};
  switch (template) {
    case undefined:
      break;
    case 'context':
      manifest.contextFileName = 'GEMINI.md';
      files['GEMINI.md'] = `# ${name}\n\nInstructions for the model go here.\n`;
      break;
    case 'custom-commands':
      files['commands/fs/grep-code.toml'] =
        'description = "Searches the code for a pattern"\nprompt = """\nPlease summarize the findings for the pattern `{{args}}`.\n\nSearch Results:\n!{grep -r {{args}} .}\n"""\n';
      break;
    case 'exclude-tools':
      manifest.excludeTools = ['run_shell_command(rm -rf)'];
      break;
    case 'mcp-server':
      manifest.mcpServers = { [name]: { command: 'node', args: ['${extensionPath}${/}server.js'] } };
      files['server.js'] =
        "// A stdio MCP server: see https://modelcontextprotocol.io for the SDK.\nconsole.error('replace me with an MCP server');\n";
      break;
    case 'skills':
      files['skills/example/SKILL.md'] =
        '---\nname: example\ndescription: Describe when the model should use this skill.\n---\n\nStep-by-step instructions go here.\n';
      break;
    default:
      throw new Error(
        `Unknown template "${template}". Templates: context, custom-commands, exclude-tools, mcp-server, skills.`,
      );
  }
  mkdirSync(dir, { recursive: true });
  writeFileAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}
