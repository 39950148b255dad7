import { z } from 'zod';

/**
 * Gemini CLI v2 settings, as far as this host reads them. Every object is loose: unknown keys (newer or
 * older Gemini CLI keys, other clients' fields) pass through untouched so existing files keep loading.
 */

const stringList = z.array(z.string());
const stringMap = z.record(z.string(), z.string());

/** `mcpServers.<alias>`: Gemini CLI fields; a Claude Desktop / Claude Code block is a subset of these. */
export const McpServerSettingsSchema = z.looseObject({
  command: z.string().optional(),
  args: stringList.optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  httpUrl: z.string().optional(),
  // Claude Code writes `streamable-http`; some tools write `streamableHttp`.
  type: z.enum(['stdio', 'sse', 'http', 'streamable-http', 'streamableHttp']).optional(),
  headers: stringMap.optional(),
  timeout: z.number().positive().optional(),
  trust: z.boolean().optional(),
  includeTools: stringList.optional(),
  excludeTools: stringList.optional(),
  description: z.string().optional(),
  // `lazy` (default): tools are declared from the cached listing and the server starts on first use;
  // `eager`: started with the session (servers with side effects at start).
  startup: z.enum(['lazy', 'eager']).optional(),
  // OAuth 2.1 for remote servers (host/mcp/oauth): a pre-registered client, scopes, a fixed redirect URI.
  oauth: z
    .looseObject({
      enabled: z.boolean().optional(),
      clientId: z.string().optional(),
      clientSecret: z.string().optional(),
      scopes: stringList.optional(),
      redirectUri: z.string().optional(),
    })
    .optional(),
  /** This entry replaces the built-in server of the same name on purpose: no notice. */
  replaceBuiltin: z.boolean().optional(),
  /** A stdio server the host starts inside the sandbox (host/config/sandbox.ts). */
  sandbox: z
    .union([z.boolean(), z.looseObject({ allowWrite: stringList.optional(), allowNet: stringList.optional() })])
    .optional(),
});

/**
 * A record whose keys are whatever the file says: zod's own record drops a `__proto__` key silently, and a
 * server of that name (or `constructor`) is still a server. Each value is checked with `value`; the keys
 * are set as own properties.
 */
export function ownRecord<T extends z.ZodType>(value: T) {
  return z
    .custom<Record<string, unknown>>((v) => !!v && typeof v === 'object' && !Array.isArray(v), {
      message: 'expected an object',
    })
    .transform((obj, ctx) => {
      const out: Record<string, z.output<T>> = {};
      for (const [key, v] of Object.entries(obj)) {
        const r = value.safeParse(v);
        if (!r.success) {
          for (const issue of r.error.issues)
            ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] });
          continue;
        }
        Object.defineProperty(out, key, { value: r.data, enumerable: true, writable: true, configurable: true });
      }
      return out;
    });
}

export const SettingsSchema = z.looseObject({
  mcpServers: ownRecord(McpServerSettingsSchema).optional(),
  mcp: z
    .looseObject({
      serverCommand: z.string().optional(),
      allowed: stringList.optional(),
      excluded: stringList.optional(),
    })
    .optional(),
  tools: z
    .looseObject({
      core: stringList.optional(),
      allowed: stringList.optional(),
      exclude: stringList.optional(),
      confirmationRequired: stringList.optional(),
      discoveryCommand: z.string().optional(),
      callCommand: z.string().optional(),
      truncateToolOutputThreshold: z.number().optional(),
      shell: z.looseObject({}).optional(),
      // Gemini CLI's key (true or a container command); here it starts the shell server sandboxed.
      sandbox: z.union([z.boolean(), z.string()]).optional(),
      sandboxNetwork: stringList.optional(),
      sandboxSecrets: stringList.optional(),
      sandboxAutoApprove: z.boolean().optional(),
    })
    .optional(),
  model: z
    .looseObject({
      name: z.string().optional(),
      maxSessionTurns: z.number().optional(),
      compressionThreshold: z.number().optional(),
      skipNextSpeakerCheck: z.boolean().optional(),
      disableLoopDetection: z.boolean().optional(),
    })
    .optional(),
  general: z
    .looseObject({
      maxAttempts: z.number().optional(),
      // Gemini CLI's values; `plan` has no equivalent here and reads as `default`.
      defaultApprovalMode: z.enum(['default', 'auto_edit', 'plan']).optional(),
      retryFetchErrors: z.boolean().optional(),
      checkpointing: z.looseObject({ enabled: z.boolean().optional() }).optional(),
    })
    .optional(),
  context: z
    .looseObject({
      includeDirectories: stringList.optional(),
      fileName: z.union([z.string(), stringList]).optional(),
    })
    .optional(),
  security: z
    .looseObject({
      auth: z.looseObject({ selectedType: z.string().optional() }).optional(),
      folderTrust: z.looseObject({ enabled: z.boolean().optional() }).optional(),
      disableYoloMode: z.boolean().optional(),
      environmentVariableRedaction: z
        .looseObject({ allowed: stringList.optional(), blocked: stringList.optional() })
        .optional(),
    })
    .optional(),
});

export type Settings = z.infer<typeof SettingsSchema>;
export type McpServerSettings = z.infer<typeof McpServerSettingsSchema>;

export type SettingsScope = 'system-defaults' | 'user' | 'workspace' | 'system';

/** v1 → v2 renames still found in old files; read as fallbacks when the v2 key is absent. */
export const V1_RENAMES: ReadonlyArray<[string, string]> = [
  ['toolDiscoveryCommand', 'tools.discoveryCommand'],
  ['toolCallCommand', 'tools.callCommand'],
  ['mcpServerCommand', 'mcp.serverCommand'],
  ['allowMCPServers', 'mcp.allowed'],
  ['excludeMCPServers', 'mcp.excluded'],
  ['coreTools', 'tools.core'],
  ['excludeTools', 'tools.exclude'],
  ['allowedTools', 'tools.allowed'],
  ['maxSessionTurns', 'model.maxSessionTurns'],
  ['skipNextSpeakerCheck', 'model.skipNextSpeakerCheck'],
];
