import { FatalInputError } from '../errors.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { candidateFiles, IMPORT_SOURCES, readImportFile, type ImportSource } from '../config/import-sources.js';
import { safeText } from '../safe-text.js';
import { namingNote, serversIn, untrustedProjectNote, writeServerEntries } from './mcp-edit.js';
import { EXIT_OK, parseScope, settingsPathFor, type McpCommandOptions, type Scope } from './mcp-shared.js';

/**
 * `mcp import --from <client>`: adds another client's servers to our settings (comments and layout of the
 * settings file kept) and says what it mapped, what it left out and why. Names already configured are
 * kept as they are unless `--overwrite`.
 */
export function importServers(
  argv: string[],
  opts: McpCommandOptions,
  out: NodeJS.WritableStream,
  _err: NodeJS.WritableStream,
): number {
  const o = parseImportArgs(argv);
  const source = o.source;
  const cwd = resolve(opts.cwd);
  const env = opts.env ?? process.env;
  const file = o.file ? resolve(cwd, o.file) : candidateFiles(source, cwd, env).find((f) => existsSync(f));
  if (!file)
    throw new FatalInputError(
      `No ${source} configuration found (looked for ${candidateFiles(source, cwd, env).join(', ')}); pass --file PATH.`,
    );
  const found = readImportFile(source, file, cwd);
  const scope: Scope = o.scope ?? (source === 'claude-desktop' ? 'user' : 'project');
  const target = settingsPathFor(scope, opts);
  const existing = serversIn(target);
  const chosen = new Map<string, unknown>();
  out.write(
    `Importing from ${file} into ${scope} settings (${target})${o.dryRun ? ' — dry run, nothing written' : ''}:\n`,
  );
  // Names and commands come from another program's file: shown through the sanitiser, collected in one
  // string (one write, not thousands).
  const lines: string[] = [];
  for (const s of found.servers) {
    const shown = safeText(s.name);
    if (existing.has(s.name) && !o.overwrite) {
      lines.push(`  = ${shown}: already configured, kept as it is (--overwrite replaces it)`);
      continue;
    }
    chosen.set(s.name, s.entry);
    lines.push(`  + ${shown}: ${safeText(summary(s.entry))}${existing.has(s.name) ? ' (replaces your entry)' : ''}`);
    for (const n of s.notes) lines.push(`      ${safeText(n)}`);
  }
  for (const r of found.rejected) lines.push(`  ! ${safeText(r.name)}: skipped, ${safeText(r.reason)}`);
  if (lines.length) out.write(`${lines.join('\n')}\n`);
  const names = [...chosen.keys()];
  if (!o.dryRun && names.length) {
    writeServerEntries(target, chosen);
    out.write(safeText(namingNote(names, target), { multiline: true }));
  }
  out.write(`${names.length} server${names.length === 1 ? '' : 's'} ${o.dryRun ? 'would be ' : ''}imported.\n`);
  if (scope === 'project' && names.length && !o.dryRun) out.write(untrustedProjectNote(opts));
  return EXIT_OK;
}

function summary(entry: Record<string, unknown>): string {
  if (entry.httpUrl) return `Streamable HTTP ${entry.httpUrl}`;
  if (entry.url) return `${entry.type === 'sse' ? 'SSE' : 'HTTP (auto)'} ${entry.url}`;
  return `stdio ${[entry.command, ...((entry.args as string[] | undefined) ?? [])].join(' ')}`;
}

interface ImportArgs {
  source: ImportSource;
  scope?: Scope;
  file?: string;
  dryRun: boolean;
  overwrite: boolean;
}

function parseImportArgs(argv: string[]): ImportArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      options: {
        from: { type: 'string' },
        scope: { type: 'string', short: 's' },
        file: { type: 'string' },
        'dry-run': { type: 'boolean' },
        overwrite: { type: 'boolean' },
      },
    }).values;
  } catch (e) {
    throw new FatalInputError((e as Error).message);
  }
  const from = values.from as string | undefined;
  if (!from || !(IMPORT_SOURCES as readonly string[]).includes(from)) {
    throw new FatalInputError(`mcp import needs --from ${IMPORT_SOURCES.join('|')}.`);
  }
  return {
    source: from as ImportSource,
    scope: typeof values.scope === 'string' ? parseScope('--scope', values.scope) : undefined,
    file: values.file as string | undefined,
    dryRun: values['dry-run'] === true,
    overwrite: values.overwrite === true,
  };
}
