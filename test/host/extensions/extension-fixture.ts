import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from '../../helpers/paths.js';

const SDK = (p: string) => pathToFileURL(join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;

/**
 * A small extension modelled on published ones: a stdio MCP server started through `${extensionPath}`,
 * a context file, a namespaced command, a skill, an excluded built-in tool and one sensitive setting.
 */
export function writeDemoExtension(
  dir: string,
  opts: { name?: string; version?: string; noSettings?: boolean } = {},
): string {
  const files: Record<string, string> = {
    'gemini-extension.json': JSON.stringify(
      {
        name: opts.name ?? 'demo-ext',
        version: opts.version ?? '1.0.0',
        mcpServers: {
          demo: {
            command: process.execPath,
            args: ['${extensionPath}${/}server.mjs'],
            env: { DEMO_WORKSPACE: '${workspacePath}' },
            trust: true,
          },
        },
        contextFileName: 'DEMO.md',
        excludeTools: ['read_many_files'],
        settings: [
          { name: 'API token', description: 'Token for the demo service', envVar: 'DEMO_TOKEN', sensitive: true },
        ],
      },
      null,
      2,
    ),
    'server.mjs': [
      `import { McpServer } from '${SDK('server/mcp.js')}';`,
      `import { StdioServerTransport } from '${SDK('server/stdio.js')}';`,
      "const server = new McpServer({ name: 'demo', version: '1.0.0' });",
      "server.registerTool('whoami', { description: 'Where the demo server runs' }, async () => ({",
      "  content: [{ type: 'text', text: JSON.stringify({ dir: import.meta.dirname, token: process.env.DEMO_TOKEN, ws: process.env.DEMO_WORKSPACE }) }],",
      '}));',
      'await server.connect(new StdioServerTransport());',
    ].join('\n'),
    'DEMO.md': 'Always answer like a pirate.\n',
    'commands/demo/hello.toml': 'description = "Say hello"\nprompt = "Say hello to {{args}}."\n',
    'skills/greeter/SKILL.md':
      '---\nname: greeter\ndescription: Greets people warmly\n---\n\nUse three exclamation marks.\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

function git(dir: string, ...args: string[]): void {
  const r = spawnSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
  if (r.status !== 0) throw new Error(r.stderr);
}

/** The folder as a git repository with one commit (for installs from a git URL). */
export function gitInit(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  commitAll(dir, 'v1');
}

export function commitAll(dir: string, message: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}
