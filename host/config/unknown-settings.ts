import { closestNames } from '../scheduler/texts.js';

/**
 * The settings keys Gemini CLI 0.61 knows (its settings schema), two levels deep, plus this host's own.
 * `undefined`: a section whose inner keys are free or change too often to check (servers, hooks,
 * experiments). A key outside this table is most likely a typo, so it is named with the closest known one.
 */
const KNOWN: Record<string, readonly string[] | undefined> = {
  $schema: undefined,
  mcpServers: undefined,
  mcpServerOptions: undefined,
  policyPaths: undefined,
  adminPolicyPaths: undefined,
  general: [
    'preferredEditor',
    'openEditorInNewWindow',
    'vimMode',
    'defaultApprovalMode',
    'devtools',
    'enableAutoUpdate',
    'enableAutoUpdateNotification',
    'enableNotifications',
    'notificationMethod',
    'checkpointing',
    'plan',
    'retryFetchErrors',
    'maxAttempts',
    'debugKeystrokeLogging',
    'sessionRetention',
    'topicUpdateNarration',
    'logRagSnippets',
    // Deprecated: Gemini CLI turns these into enableAutoUpdate / enableAutoUpdateNotification without a
    // word, so they are known here too (neither has anything to do in this host, which never updates itself).
    'disableAutoUpdate',
    'disableUpdateNag',
  ],
  output: ['format'],
  ui: [
    'debugRainbow',
    'theme',
    'autoThemeSwitching',
    'terminalBackgroundPollingInterval',
    'customThemes',
    'hideWindowTitle',
    'inlineThinkingMode',
    'showStatusInTitle',
    'dynamicWindowTitle',
    'showHomeDirectoryWarning',
    'showCompatibilityWarnings',
    'hideTips',
    'escapePastedAtSymbols',
    'showShortcutsHint',
    'compactToolOutput',
    'hideBanner',
    'hideContextSummary',
    'footer',
    'hideFooter',
    'collapseDrawerDuringApproval',
    'showMemoryUsage',
    'showLineNumbers',
    'showCitations',
    'showModelInfoInChat',
    'showUserIdentity',
    'useAlternateBuffer',
    'renderProcess',
    'terminalBuffer',
    'useBackgroundColor',
    'incrementalRendering',
    'showSpinner',
    'loadingPhrases',
    'errorVerbosity',
    'customWittyPhrases',
    'accessibility',
  ],
  ide: ['enabled', 'hasSeenNudge'],
  privacy: ['usageStatisticsEnabled'],
  telemetry: undefined,
  billing: ['overageStrategy', 'vertexAi'],
  model: [
    'name',
    'maxSessionTurns',
    'summarizeToolOutput',
    'compressionThreshold',
    'disableLoopDetection',
    'skipNextSpeakerCheck',
  ],
  modelConfigs: undefined,
  agents: undefined,
  context: [
    'fileName',
    'importFormat',
    'includeDirectoryTree',
    'discoveryMaxDirs',
    'memoryBoundaryMarkers',
    'includeDirectories',
    'loadMemoryFromIncludeDirectories',
    'fileFiltering',
  ],
  tools: [
    'sandbox',
    'sandboxAllowedPaths',
    'sandboxNetworkAccess',
    'shell',
    'core',
    'allowed',
    'confirmationRequired',
    'exclude',
    'discoveryCommand',
    'callCommand',
    'useRipgrep',
    'truncateToolOutputThreshold',
    'disableLLMCorrection',
  ],
  mcp: ['serverCommand', 'allowed', 'excluded'],
  useWriteTodos: undefined,
  security: [
    'toolSandboxing',
    'disableYoloMode',
    'disableAlwaysAllow',
    'enablePermanentToolApproval',
    'autoAddToPolicyByDefault',
    'blockGitExtensions',
    'allowedExtensions',
    'folderTrust',
    'environmentVariableRedaction',
    'auth',
    'enableConseca',
  ],
  advanced: ['autoConfigureMemory', 'dnsResolutionOrder', 'excludedEnvVars', 'ignoreLocalEnv', 'bugCommand'],
  experimental: undefined,
  extensions: ['disabled', 'workspacesWithMigrationNudge'],
  skills: ['enabled', 'disabled'],
  hooksConfig: ['enabled', 'disabled', 'notifications'],
  hooks: undefined,
  contextManagement: undefined,
  admin: ['secureModeEnabled', 'extensions', 'mcp', 'skills'],
};

/** Keys of ours that Gemini CLI does not have (the sandbox's network, secrets and auto-approval). */
const OWN: Record<string, readonly string[]> = {
  tools: ['sandboxNetwork', 'sandboxSecrets', 'sandboxAutoApprove'],
};

function known(section: string): readonly string[] | undefined {
  const base = Object.hasOwn(KNOWN, section) ? KNOWN[section] : undefined;
  return base && [...new Set([...base, ...(OWN[section] ?? [])])];
}

/** The closest known name, or a nested key spelled exactly as this top-level one (v1 `theme` → `ui.theme`). */
function suggestion(key: string, names: readonly string[], prefix = ''): string {
  if (!prefix) {
    const nested = Object.entries(KNOWN).find(([, inner]) => inner?.includes(key));
    if (nested) return ` (did you mean "${nested[0]}.${key}"?)`;
  }
  const near = closestNames(key, [...names], 1, Math.max(2, Math.floor(key.length / 3)));
  return near.length ? ` (did you mean "${prefix}${near[0]}"?)` : '';
}

/** One warning per unknown key of a settings file, each naming the closest known key when there is one. */
export function unknownKeyWarnings(layer: Record<string, unknown>, path: string): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(layer)) {
    if (!Object.hasOwn(KNOWN, key)) {
      out.push(`${path}: unknown setting "${key}"${suggestion(key, Object.keys(KNOWN))}; it is ignored.`);
      continue;
    }
    const inner = known(key);
    if (!inner || !value || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const sub of Object.keys(value)) {
      if (!inner.includes(sub))
        out.push(`${path}: unknown setting "${key}.${sub}"${suggestion(sub, inner, `${key}.`)}; it is ignored.`);
    }
  }
  return out;
}
