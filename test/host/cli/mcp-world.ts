import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMcpCommand } from '../../../host/cli/mcp-subcommand.js';
import { tempDir } from '../../helpers/tmp.js';

/**
 * A home and a project in a fresh temp folder, no system settings, and `run(...argv)` calling the `mcp`
 * subcommand in-process with its output captured: the world of the `mcp import` tests.
 */
export function mcpWorld(prefix: string) {
  const root = tempDir(prefix);
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(project, { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(root, 'none.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(root, 'none-defaults.json'),
  };
  const run = async (...argv: string[]) => {
    let out = '';
    let err = '';
    const sink = (f: (s: string) => void) =>
      ({ write: (s: string) => (f(s), true) }) as unknown as NodeJS.WritableStream;
    const code = await runMcpCommand(argv, {
      cwd: project,
      env,
      stdout: sink((s) => (out += s)),
      stderr: sink((s) => (err += s)),
      settleTimeoutMs: 20_000,
    });
    return { code, out, err };
  };
  const write = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return {
    root,
    home,
    project,
    env,
    run,
    write,
    userFile: join(home, '.gemini', 'settings.json'),
    projectFile: join(project, '.gemini', 'settings.json'),
    mcpJson: join(project, '.mcp.json'),
  };
}
