import { parseArgs } from 'node:util';
import { geminiHome } from '../config/settings.js';
import { loadSettings } from '../load-settings.js';
import { asFatal, EXIT, FatalInputError } from '../errors.js';
import { skillDirs } from '../extensions/contributions.js';
import { parseArgsMessage } from '../cli-parse-error.js';
import { safeBlock } from '../safe-text.js';
import { disabledSkillNames, loadSkills } from '../skills/skills.js';
import { toggleSkill } from '../skills/skill-toggle.js';

/**
 * `gemini-mcp skills …` (alias `skill`): Gemini CLI 0.61's `gemini skills` sub-commands, its output and its
 * files (skills in ~/.gemini/skills and .gemini/skills, `skills.disabled` in settings). Exit 0 on success,
 * 1 when it failed, 42 for usage errors.
 */
const USAGE = `Usage: gemini-mcp skills <command>
  list [--all]                                   discovered agent skills, enabled or disabled
  enable <name>                                  enable a skill (removes it from every disabled list)
  disable <name> [--scope user|workspace]        disable a skill (default scope: workspace)
  install <git URL | path> [--scope user|workspace] [--path sub/dir] [--consent]   copy a skill in
  link <path> [--scope user|workspace] [--consent]                           use a skill folder in place
  uninstall <name> [--scope user|workspace]                                  remove an installed skill
`;

export interface SkillsCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
}

export async function runSkillsCommand(argv: string[], opts: SkillsCommandOptions): Promise<number> {
  const out = opts.stdout ?? ((s: string) => process.stdout.write(s));
  const err = opts.stderr ?? ((s: string) => process.stderr.write(s));
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case 'list':
        return listSkills(rest, opts, out);
      case 'enable':
      case 'disable':
        return toggle(sub, rest, opts, out);
      case 'install':
      case 'link':
      case 'uninstall':
        return await (await import('./skills-install-subcommand.js')).runSkillInstall(sub, rest, opts, out);
      case '-h':
      case '--help':
      case 'help':
        out(USAGE);
        return EXIT.ok;
      case undefined:
        throw new FatalInputError('You need at least one command before continuing.');
      default:
        throw new FatalInputError(`Unknown skills command "${sub}".`);
    }
  } catch (e) {
    const fatal = asFatal(e);
    err(fatal instanceof FatalInputError ? `${fatal.message}\n${USAGE}` : `Error: ${fatal.message}\n`);
    return fatal.exitCode;
  }
}

export function parse(args: string[], options: Record<string, { type: 'string' | 'boolean'; short?: string }>) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new FatalInputError(parseArgsMessage(e, 'gemini-mcp skills'));
  }
}

/** Gemini CLI's list: name and state, description, location; sorted by name. */
function listSkills(args: string[], opts: SkillsCommandOptions, out: (s: string) => void): number {
  const { positionals } = parse(args, { all: { type: 'boolean' } });
  if (positionals.length) throw new FatalInputError(`Unexpected argument "${positionals[0]}".`);
  const env = opts.env ?? process.env;
  const settings = loadSettings({ cwd: opts.cwd, env });
  const home = geminiHome(env);
  const where = { cwd: opts.cwd, home, trusted: settings.trust.trusted, extensions: settings.extensions.extensions };
  const skills = loadSkills(skillDirs(where)).sort((a, b) => a.name.localeCompare(b.name));
  if (!skills.length) {
    out('No skills discovered.\n');
    return EXIT.ok;
  }
  const disabled = disabledSkillNames(settings.merged);
  const lines = ['Discovered Agent Skills:', ''];
  for (const s of skills) {
    lines.push(`${s.name} ${disabled.has(s.name) ? '[Disabled]' : '[Enabled]'}`);
    lines.push(`  Description: ${s.description}`, `  Location:    ${s.location}`, '');
  }
  // Names and descriptions come from files anyone may have written: control characters are shown, not run.
  out(safeBlock(`${lines.join('\n')}\n`));
  return EXIT.ok;
}

function toggle(action: 'enable' | 'disable', args: string[], opts: SkillsCommandOptions, out: (s: string) => void) {
  const { values, positionals } = parse(args, { scope: { type: 'string', short: 's' } });
  const name = positionals[0];
  if (!name || positionals.length > 1) throw new FatalInputError(`Usage: gemini-mcp skills ${action} <name>`);
  if (action === 'enable' && values.scope !== undefined) throw new FatalInputError('Unknown option --scope.');
  const scope = values.scope ?? 'workspace';
  if (scope !== 'user' && scope !== 'workspace')
    throw new FatalInputError(`Invalid --scope "${scope}". Use one of: user, workspace.`);
  out(safeBlock(`${toggleSkill(action, name, scope, { cwd: opts.cwd, env: opts.env ?? process.env })}\n`));
  return EXIT.ok;
}
