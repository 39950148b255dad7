import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseArgsMessage } from '../cli-parse-error.js';
import { editJsoncFile } from '../config/jsonc-edit.js';
import { readJsoncObject } from '../config/jsonc-file.js';
import { workspaceSettingsPath } from '../config/settings.js';
import { asFatal, EXIT, FatalInputError } from '../errors.js';
import { migrateClaudeHooks } from '../hooks/claude-migrate.js';
import { safeBlock } from '../safe-text.js';

/**
 * `gemini-mcp hooks migrate --from-claude` (alias `hook`): Gemini CLI 0.61's command, its messages and its
 * file: the project's Claude Code hooks (.claude/settings.local.json, else .claude/settings.json) become
 * Gemini CLI hooks in the project's .gemini/settings.json. Exit 0 done (or nothing to do), 1 a file could
 * not be read or written, 42 usage.
 */
const USAGE = 'Usage: gemini-mcp hooks migrate --from-claude\n\nMigrate hooks from Claude Code to Gemini CLI format.\n';

export interface HooksCommandOptions {
  cwd: string;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
}

export async function runHooksCommand(argv: string[], opts: HooksCommandOptions): Promise<number> {
  const out = opts.stdout ?? ((s: string) => process.stdout.write(s));
  const err = opts.stderr ?? ((s: string) => process.stderr.write(s));
  const [sub, ...rest] = argv;
  try {
    if (sub === '-h' || sub === '--help' || sub === 'help') {
      out(USAGE);
      return EXIT.ok;
    }
    if (sub === undefined) throw new FatalInputError('You need at least one command before continuing.');
    if (sub !== 'migrate') throw new FatalInputError(`Unknown hooks command "${sub}".`);
    let values: { 'from-claude'?: boolean };
    try {
      ({ values } = parseArgs({ args: rest, options: { 'from-claude': { type: 'boolean' } }, strict: true }));
    } catch (e) {
      throw new FatalInputError(parseArgsMessage(e, 'gemini-mcp hooks migrate'));
    }
    // As in Gemini CLI, without --from-claude the command says how to use it.
    if (!values['from-claude']) {
      out(USAGE);
      return EXIT.ok;
    }
    return migrateFromClaude(opts.cwd, out);
  } catch (e) {
    const fatal = asFatal(e);
    err(fatal instanceof FatalInputError ? `${fatal.message}\n${USAGE}` : `Error: ${fatal.message}\n`);
    return fatal.exitCode;
  }
}

function migrateFromClaude(cwd: string, out: (s: string) => void): number {
  const local = join(cwd, '.claude', 'settings.local.json');
  const shared = join(cwd, '.claude', 'settings.json');
  const source = existsSync(local) ? local : existsSync(shared) ? shared : undefined;
  if (!source)
    throw new Error(
      'No Claude Code settings found in .claude directory. Expected settings.json or settings.local.json',
    );
  // A file that does not parse is an error with its path and reason (readJsoncObject says both).
  const claude = readJsoncObject(source).value;
  out(`Found Claude Code settings in: ${source}\n`);
  const { hooks, skipped } = migrateClaudeHooks(claude);
  for (const event of skipped) out(safeBlock(`Skipped "${event}": Gemini CLI has no such hook event.\n`));
  const events = Object.keys(hooks);
  if (!events.length) {
    out('No hooks found in Claude Code settings to migrate.\n');
    return EXIT.ok;
  }
  out(`Migrating ${events.length} hook event(s)...\n`);
  // Each migrated event replaces the project's hooks for that event (running it twice changes nothing);
  // the project's other events, keys and comments stay.
  editJsoncFile(
    workspaceSettingsPath(cwd),
    events.map((e) => ({ path: ['hooks', e], value: hooks[e] })),
  );
  out('✓ Hooks successfully migrated to .gemini/settings.json\n');
  out('\nMigration complete! Please review the migrated hooks in .gemini/settings.json\n');
  return EXIT.ok;
}
