import { asFatal, FatalInputError } from '../errors.js';
import { EXIT_ERROR, EXIT_OK, type McpCommandOptions } from './mcp-shared.js';

export { EXIT_CONFIG, EXIT_ERROR, EXIT_OK, type McpCommandOptions } from './mcp-shared.js';

const USAGE = `Usage:
  gemini-mcp mcp list [--skip-trust]
  gemini-mcp mcp add [-s user|project] [-t stdio|http|sse] [-e KEY=VALUE]... [-H 'Name: value']...
                     [--trust] [--timeout ms] [--description text] [--include-tools a,b] [--exclude-tools a,b]
                     <name> <command-or-url> [args...]
  gemini-mcp mcp remove [-s user|project] <name>
  gemini-mcp mcp enable|disable <name>       switch a server on or off (Gemini CLI's mcp-server-enablement.json)
  gemini-mcp mcp resources [server]          resources and resource templates servers offer
  gemini-mcp mcp read <server> <uri>         a resource's content on stdout
  gemini-mcp mcp prompts [server]            prompts, run as gemini-mcp -p "/name arg=value"
  gemini-mcp mcp auth <server> [--logout]    sign in to a remote server with OAuth (browser), or sign out
  gemini-mcp mcp import --from claude-desktop|claude-code|cursor|vscode [-s user|project] [--file PATH]
                        [--dry-run] [--overwrite]
Options go before <name>; everything after <command-or-url> is passed to the server unchanged.
Edits keep the settings file's comments and layout.
`;

/** `gemini-mcp mcp list|add|remove|import`; returns the exit code (0 ok, 1 error, 42 usage, 52 configuration error). */
export async function runMcpCommand(argv: string[], opts: McpCommandOptions = { cwd: process.cwd() }): Promise<number> {
  const out = opts.stdout ?? process.stdout;
  const err = opts.stderr ?? process.stderr;
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case 'list':
        return await (await import('./mcp-list.js')).listServers(rest, opts, out, err);
      case 'add':
        return (await import('./mcp-edit.js')).addServer(rest, opts, out, err);
      case 'remove':
      case 'rm':
        return (await import('./mcp-edit.js')).removeServer(rest, opts, out, err);
      case 'enable':
      case 'disable':
        return (await import('./mcp-enable.js')).setServerEnabled(sub === 'enable', rest, opts, out, err);
      case 'resources':
        return await (await import('./mcp-inspect.js')).listResources(rest, opts, out);
      case 'read':
        return await (await import('./mcp-inspect.js')).readResource(rest, opts, out, err);
      case 'prompts':
        return await (await import('./mcp-inspect.js')).listPrompts(rest, opts, out);
      case 'auth':
        return await (await import('./mcp-auth.js')).authServer(rest, opts, out, err);
      case 'import':
        return (await import('./mcp-import.js')).importServers(rest, opts, out, err);
      case '-h':
      case '--help':
      case 'help':
        out.write(USAGE);
        return EXIT_OK;
      case undefined:
        throw new FatalInputError(
          'mcp needs a command: list, add, remove, enable, disable, resources, read, prompts, auth or import.',
        );
      default:
        throw new FatalInputError(`Unknown mcp command "${sub}".`);
    }
  } catch (e) {
    const fatal = asFatal(e);
    if (fatal instanceof FatalInputError) err.write(`${fatal.message}\n${USAGE}`);
    else err.write(fatal.exitCode === EXIT_ERROR ? `Error: ${fatal.message}\n` : `${fatal.message}\n`);
    return fatal.exitCode;
  }
}
