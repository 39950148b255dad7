import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createKitServer, type KitServer } from '../common/create-server.js';
import type { Logger } from '../common/logger.js';
import { VERSION } from '../../protocol/version.js';
import { META } from '../../protocol/meta.js';
import { refusedContextFileNamesNotice, splitContextFileNames } from '../../protocol/context-file-name.js';
import { candidateDirs, contextInputs, type DiscoveryOptions } from './context/discovery.js';
import { loadContext } from './context/render.js';
import { subdirectoryContext } from './context/jit.js';
import { ContextWatcher } from './context/watch.js';
import { MemoryFileWriter } from './memory-file.js';
import { resolveMemoryPaths } from './paths.js';
import { createAskUserTool } from './tools/ask-user.js';
import { createSaveMemoryTool } from './tools/save-memory.js';

export const CONTEXT_URI = 'gemini-memory://context';
export const FILES_URI = 'gemini-memory://files';
/** `?path=<absolute path>`: context files of the subdirectories between a root and that path. */
export const CONTEXT_FOR_TEMPLATE = 'gemini-memory://context-for{?path}';

export interface MemoryServerDeps {
  roots: string[];
  projectTempDir?: string;
  log: Logger;
  /** `--memory-file`; default `<home>/.gemini/<first file name>`. */
  memoryFile?: string;
  /** Context file names (`--context-file-name`), default `GEMINI.md` then `AGENTS.md`. */
  contextFileNames?: string[];
  /** For `GEMINI_CLI_HOME`; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_CONTEXT_FILE_NAMES = ['GEMINI.md', 'AGENTS.md'];

export function createMemoryServer(deps: MemoryServerDeps): KitServer {
  // A context file name is a plain name looked up in a folder, never a path out of it.
  const { names: plain, refused } = splitContextFileNames(deps.contextFileNames ?? []);
  if (refused.length) deps.log.warn(refusedContextFileNamesNotice(refused));
  // AGENTS.md beside GEMINI.md by default: the file Claude Code, Codex and other agents' users already keep
  // (Gemini CLI reads it only when named in context.fileName); memories are saved to the first name.
  const fileNames = plain.length ? plain : DEFAULT_CONTEXT_FILE_NAMES;
  const paths = resolveMemoryPaths({ memoryFile: deps.memoryFile, fileNames, env: deps.env ?? process.env });
  const writer = new MemoryFileWriter(paths.memoryFile);
  const subscriptions = new Set<string>();
  let lastText: string | undefined;

  const notify = (uris: string[]) => {
    for (const uri of uris) {
      kit.mcp.server
        .sendResourceUpdated({ uri })
        .catch((err: Error) => deps.log.debug(`resources/updated: ${err.message}`));
    }
  };

  const globalFiles = fileNames.map((n) => join(paths.globalDir, n));
  if (!globalFiles.includes(paths.memoryFile)) globalFiles.push(paths.memoryFile);
  const discovery = (): DiscoveryOptions => ({
    globalFiles,
    roots: kit.roots.list,
    fileNames,
    globalDir: paths.globalDir,
  });

  const load = async () => {
    await kit.rootsReady?.();
    const ctx = await loadContext(discovery());
    warnSkipped(deps.log, ctx.skipped);
    if (subscriptions.size > 0) watcher.update(candidateDirs(discovery()), ctx.touched, fileNames);
    lastText = ctx.text;
    return ctx;
  };

  // A change on disk is announced only when it changed what the model would see.
  const watcher = new ContextWatcher(() => {
    const before = lastText;
    load()
      .then((ctx) => {
        if (ctx.text !== before) notify([...subscriptions]);
      })
      .catch((err: Error) => deps.log.warn(`reloading context: ${err.message}`));
  });

  const kit = createKitServer({
    name: 'gemini-mcp-memory',
    version: VERSION,
    instructions:
      'Long-term memory: facts to remember are appended to the global GEMINI.md; questions for the user are ' +
      'asked through a form (elicitation). The assembled context files are the ' +
      `resource ${CONTEXT_URI} (list of files: ${FILES_URI}); subscribe to be told when they change.`,
    tools: [
      createSaveMemoryTool({
        writer,
        home: paths.home,
        // The host reloads its system instruction on this, subscribed or not.
        onSaved: () => notify([CONTEXT_URI, ...(subscriptions.has(FILES_URI) ? [FILES_URI] : [])]),
      }),
      createAskUserTool(),
    ],
    log: deps.log,
    roots: deps.roots,
    projectTempDir: deps.projectTempDir,
    // Other roots mean other project context files.
    onRootsChanged: () => {
      if (subscriptions.size > 0) watcher.trigger();
    },
    onClose: () => watcher.close(),
  });

  kit.mcp.registerResource(
    'memory-context',
    CONTEXT_URI,
    {
      title: 'Memory context',
      description: 'The assembled GEMINI.md context for the system instruction.',
      mimeType: 'text/markdown',
    },
    async (uri) => {
      const ctx = await load();
      return {
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: ctx.text }],
        _meta: { [META.resourceInputs]: contextInputs(discovery(), ctx.touched) },
      };
    },
  );
  registerFilesResource(kit, load);
  registerContextFor(kit, fileNames);
  registerSubscriptions(kit, subscriptions, load, () => watcher.close());
  return kit;
}

function warnSkipped(log: MemoryServerDeps['log'], paths: string[]): void {
  for (const path of paths) log.warn(`context file ${path} is not loaded: it is a link leading outside its project`);
}

/** The list of context files the memory context was built from. */
function registerFilesResource(kit: KitServer, load: () => Promise<{ files: { path: string; scope: string }[] }>) {
  kit.mcp.registerResource(
    'memory-files',
    FILES_URI,
    {
      title: 'Loaded context files',
      description: 'The context files the memory context was built from.',
      mimeType: 'application/json',
    },
    async (uri) => {
      const { files } = await load();
      const text = JSON.stringify({ files: files.map((f) => ({ path: f.path, scope: f.scope })) });
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );
}

/** resources/subscribe: watching starts with the first subscription and stops with the last. */
function registerSubscriptions(
  kit: KitServer,
  subscriptions: Set<string>,
  load: () => Promise<unknown>,
  stopWatching: () => void,
) {
  kit.mcp.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  kit.mcp.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    subscriptions.add(req.params.uri);
    // Loading fills the watch list.
    await load();
    return {};
  });
  kit.mcp.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscriptions.delete(req.params.uri);
    if (subscriptions.size === 0) stopWatching();
    return {};
  });
}

/** The just-in-time resource: context files between a root and a path the client names. */
function registerContextFor(kit: KitServer, fileNames: string[]): void {
  kit.mcp.registerResource(
    'memory-context-for',
    new ResourceTemplate(CONTEXT_FOR_TEMPLATE, { list: undefined }),
    {
      title: 'Context for a path',
      description:
        'Context files in the directories between a workspace root and the given path (just-in-time context), one entry per file.',
      mimeType: 'text/markdown',
    },
    async (_uri, variables) => {
      const raw = Array.isArray(variables.path) ? variables.path[0] : variables.path;
      // The SDK hands template variables over still percent-encoded.
      const target = raw ? safeDecode(raw) : undefined;
      if (!target || !isAbsolute(target)) return { contents: [] };
      await kit.rootsReady?.();
      const { files, inputs } = await subdirectoryContext(target, kit.roots.list, fileNames);
      return {
        contents: files.map((f) => ({ uri: pathToFileURL(f.path).href, mimeType: 'text/markdown', text: f.text })),
        _meta: { [META.resourceInputs]: inputs },
      };
    },
  );
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
