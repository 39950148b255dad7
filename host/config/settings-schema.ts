import * as z from 'zod/mini';

/**
 * Gemini CLI v2 settings, as far as this host reads them. Every object is loose: unknown keys (newer or
 * older Gemini CLI keys, other clients' fields) pass through untouched so existing files keep loading.
 *
 * Written with zod's tree-shakable `zod/mini` API, as are all schemas a host start builds: with classic
 * zod, evaluating it and building this schema took ~20 ms of every host start before the first model
 * request, ~12 ms with mini (docs/architecture.md, "Build and start-up"). Use `z.optional(…)` and the
 * like directly: destructuring from the `z` namespace makes the bundler build the whole namespace object.
 */

const stringList = z.array(z.string());
const stringMap = z.record(z.string(), z.string());

/** Our own options of a server, beside Gemini CLI's fields (in the entry, or in `mcpServerOptions`). */
const SERVER_OPTIONS = {
  // `lazy` (default): tools are declared from the cached listing and the server starts on first use;
  // `eager`: started with the session (servers with side effects at start).
  startup: z.optional(z.enum(['lazy', 'eager'])),
  /** This entry replaces the built-in server of the same name on purpose: no notice. */
  replaceBuiltin: z.optional(z.boolean()),
  /** A stdio server the host starts inside the sandbox (host/config/sandbox.ts). */
  sandbox: z.optional(
    z.union([z.boolean(), z.looseObject({ allowWrite: z.optional(stringList), allowNet: z.optional(stringList) })]),
  ),
};

/** `mcpServers.<alias>`: Gemini CLI fields; a Claude Desktop / Claude Code block is a subset of these. */
export const McpServerSettingsSchema = z.looseObject({
  command: z.optional(z.string()),
  args: z.optional(stringList),
  env: z.optional(stringMap),
  cwd: z.optional(z.string()),
  url: z.optional(z.string()),
  httpUrl: z.optional(z.string()),
  // Claude Code writes `streamable-http`; some tools write `streamableHttp`.
  type: z.optional(z.enum(['stdio', 'sse', 'http', 'streamable-http', 'streamableHttp'])),
  headers: z.optional(stringMap),
  timeout: z.optional(z.number().check(z.positive())),
  trust: z.optional(z.boolean()),
  includeTools: z.optional(stringList),
  excludeTools: z.optional(stringList),
  description: z.optional(z.string()),
  // OAuth 2.1 for remote servers (host/mcp/oauth): a pre-registered client, scopes, a fixed redirect URI.
  oauth: z.optional(
    z.looseObject({
      enabled: z.optional(z.boolean()),
      clientId: z.optional(z.string()),
      clientSecret: z.optional(z.string()),
      scopes: z.optional(stringList),
      redirectUri: z.optional(z.string()),
    }),
  ),
  ...SERVER_OPTIONS,
});

/**
 * `mcpServerOptions.<alias>`: the same options of ours for an `mcpServers` entry (or an extension's server),
 * kept apart because Gemini CLI rejects keys it does not know inside an `mcpServers` entry and accepts them
 * at the top level: a settings file shared by both stays clean for Gemini CLI.
 */
export const McpServerOptionsSchema = z.looseObject(SERVER_OPTIONS);

/**
 * A record whose keys are whatever the file says: zod's own record drops a `__proto__` key silently, and a
 * server of that name (or `constructor`) is still a server. Each value is checked with `value`; the keys
 * are set as own properties.
 */
export function ownRecord<T extends z.ZodMiniType>(value: T) {
  return z.pipe(
    z.custom<Record<string, unknown>>((v) => !!v && typeof v === 'object' && !Array.isArray(v), {
      message: 'expected an object',
    }),
    z.transform((obj, ctx) => {
      const out: Record<string, z.output<T>> = {};
      for (const [key, v] of Object.entries(obj)) {
        const r = value.safeParse(v);
        if (!r.success) {
          for (const issue of r.error.issues)
            ctx.issues.push({ code: 'custom', message: issue.message, path: [key, ...issue.path], input: v });
          continue;
        }
        Object.defineProperty(out, key, { value: r.data, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }),
  );
}

/**
 * What Gemini CLI's settings accept for `general.defaultApprovalMode` (yolo is a flag only); every spelling
 * is then read by the one parser, host/policy/approval-mode.ts.
 */
export const SETTINGS_APPROVAL_MODES = ['default', 'auto_edit', 'plan'] as const;

export const SettingsSchema = z.looseObject({
  mcpServers: z.optional(ownRecord(McpServerSettingsSchema)),
  mcpServerOptions: z.optional(ownRecord(McpServerOptionsSchema)),
  /** Policy files or folders (user tier, admin tier); every settings file adds to the list. */
  policyPaths: z.optional(stringList),
  adminPolicyPaths: z.optional(stringList),
  mcp: z.optional(
    z.looseObject({
      serverCommand: z.optional(z.string()),
      allowed: z.optional(stringList),
      excluded: z.optional(stringList),
    }),
  ),
  tools: z.optional(
    z.looseObject({
      core: z.optional(stringList),
      allowed: z.optional(stringList),
      exclude: z.optional(stringList),
      confirmationRequired: z.optional(stringList),
      discoveryCommand: z.optional(z.string()),
      callCommand: z.optional(z.string()),
      truncateToolOutputThreshold: z.optional(z.number()),
      // Gemini CLI's key: the chat runs a command in a pseudo-terminal the user can type into (off: it is
      // stopped when it waits for input, as in a headless run).
      shell: z.optional(z.looseObject({ enableInteractiveShell: z.optional(z.boolean()) })),
      // Gemini CLI's key (true or a container command); here it starts the shell server sandboxed.
      sandbox: z.optional(z.union([z.boolean(), z.string()])),
      sandboxNetwork: z.optional(stringList),
      sandboxSecrets: z.optional(stringList),
      sandboxAutoApprove: z.optional(z.boolean()),
    }),
  ),
  model: z.optional(
    z.looseObject({
      name: z.optional(z.string()),
      maxSessionTurns: z.optional(z.number()),
      compressionThreshold: z.optional(z.number()),
      skipNextSpeakerCheck: z.optional(z.boolean()),
      disableLoopDetection: z.optional(z.boolean()),
    }),
  ),
  // The chat's look and feel, typed as Gemini CLI types them: the file is shared, and Gemini CLI refuses
  // to start cleanly on a wrong type.
  ui: z.optional(
    z.looseObject({
      theme: z.optional(z.string()),
      hideTips: z.optional(z.boolean()),
      hideBanner: z.optional(z.boolean()),
      showLineNumbers: z.optional(z.boolean()),
    }),
  ),
  general: z.optional(
    z.looseObject({
      vimMode: z.optional(z.boolean()),
      // One of Gemini CLI's editor ids; another is named at chat start and $VISUAL / $EDITOR is used.
      preferredEditor: z.optional(z.string()),
      maxAttempts: z.optional(z.number()),
      // Gemini CLI's values; `plan` has no equivalent here and reads as `default`.
      defaultApprovalMode: z.optional(z.enum(SETTINGS_APPROVAL_MODES)),
      retryFetchErrors: z.optional(z.boolean()),
      checkpointing: z.optional(z.looseObject({ enabled: z.optional(z.boolean()) })),
    }),
  ),
  context: z.optional(
    z.looseObject({
      includeDirectories: z.optional(stringList),
      fileName: z.optional(z.union([z.string(), stringList])),
    }),
  ),
  security: z.optional(
    z.looseObject({
      auth: z.optional(z.looseObject({ selectedType: z.optional(z.string()) })),
      folderTrust: z.optional(z.looseObject({ enabled: z.optional(z.boolean()) })),
      disableYoloMode: z.optional(z.boolean()),
      environmentVariableRedaction: z.optional(
        z.looseObject({ allowed: z.optional(stringList), blocked: z.optional(stringList) }),
      ),
    }),
  ),
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
