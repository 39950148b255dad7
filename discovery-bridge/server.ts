import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { createKitServer, type KitServer } from '../servers/common/create-server.js';
import type { Logger } from '../servers/common/logger.js';
import { boundResultSize } from '../servers/common/result-bound.js';
import { errorResult } from '../servers/common/result.js';
import { VERSION } from '../protocol/version.js';
import { callDiscoveredTool } from './call.js';
import type { DiscoveryCatalog } from './catalog.js';
import type { DiscoveredTool } from './declarations.js';
import { createArgsValidator } from './validate-args.js';

export const SERVER_NAME = 'gemini-mcp-discovery-bridge';

export interface DiscoveryBridgeDeps {
  /** Shared by all sessions; the entry runs the first discovery before creating servers. */
  catalog: DiscoveryCatalog;
  /** As configured, for descriptions and instructions. */
  discoveryCommandText: string;
  /** Split call command, or undefined when none is configured (calls then fail with a clear message). */
  callCommand?: string[];
  callCommandText?: string;
  /** Project root: cwd of every call. */
  cwd: string;
  /** Per call; 0 = no limit. */
  timeoutMs: number;
  log: Logger;
}

/**
 * The discovered tools are only known at run time, so they are served through the low-level
 * tools/list and tools/call handlers instead of zod-defined kit tools; the kit still supplies the
 * server, logging, roots and entry conventions (its capabilities already declare tools.listChanged).
 */
export function createDiscoveryBridgeServer(deps: DiscoveryBridgeDeps): KitServer {
  let unsubscribe: (() => void) | undefined;
  const kit = createKitServer({
    name: SERVER_NAME,
    version: VERSION,
    instructions: instructionsFor(deps),
    tools: [],
    log: deps.log,
    roots: [deps.cwd],
    onClose: () => unsubscribe?.(),
  });
  const server = kit.mcp.server;
  const validate = createArgsValidator(deps.log);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: deps.catalog.tools.map((t) => toMcpTool(t, deps)),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const name = req.params.name;
    const tool = deps.catalog.find(name);
    if (!tool) {
      const why = deps.catalog.lastError ? ` (tool discovery failed: ${deps.catalog.lastError})` : '';
      return errorResult(`Tool "${name}" not found among the discovered tools${why}.`, 'invalid_tool_params');
    }
    const args = req.params.arguments ?? {};
    const invalid = validate(tool, args);
    if (invalid) return errorResult(`Invalid arguments for tool "${name}": ${invalid}`, 'invalid_tool_params');
    if (!deps.callCommand) {
      return errorResult(
        `Tool "${name}" cannot run: no call command is configured (tools.callCommand / --call-command).`,
        'execution_failed',
      );
    }
    // Cancellation and a closing session (the SDK aborts in-flight handlers on close) both end the
    // call's process group through this signal; the group would otherwise outlive the bridge.
    const result = await callDiscoveredTool(tool.name, args, {
      command: deps.callCommand,
      cwd: deps.cwd,
      timeoutMs: deps.timeoutMs,
      signal: extra.signal,
    });
    return boundResultSize(result);
  });

  unsubscribe = deps.catalog.onChange(() => {
    // Only a connected session can be told; the next tools/list shows the new set anyway.
    server.sendToolListChanged().catch((err: Error) => deps.log.debug(`list_changed not sent: ${err.message}`));
  });
  return kit;
}

function toMcpTool(tool: DiscoveredTool, deps: DiscoveryBridgeDeps): Tool {
  return {
    name: tool.name,
    description: describe(tool, deps),
    inputSchema: tool.inputSchema,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

/** Like upstream, every description says where the tool came from and how it reports failure. */
function describe(tool: DiscoveredTool, deps: DiscoveryBridgeDeps): string {
  const call = deps.callCommandText ?? '<no call command configured>';
  const note =
    `This tool was discovered from the project by running \`${deps.discoveryCommandText}\` in the project root. ` +
    `Calling it runs \`${call} ${tool.name}\` in the project root with the arguments as JSON on stdin; ` +
    'its standard output is the result. On failure the result has the lines Stdout, Stderr, Error, ' +
    'Exit Code and Signal (the signal name, when a signal ended the command).';
  return tool.description ? `${tool.description}\n\n${note}` : note;
}

function instructionsFor(deps: DiscoveryBridgeDeps): string {
  const { catalog } = deps;
  if (catalog.lastError) {
    return (
      `Tool discovery failed: ${catalog.lastError} No discovered tools are available; ` +
      'the bridge re-runs discovery on SIGHUP (and periodically when --refresh-s is set).'
    );
  }
  return (
    `Tools discovered by running \`${deps.discoveryCommandText}\` in ${deps.cwd} ` +
    `(${catalog.tools.length} at startup). Each call runs the project's call command; failures report ` +
    'Stdout, Stderr, Error, Exit Code and Signal.'
  );
}
