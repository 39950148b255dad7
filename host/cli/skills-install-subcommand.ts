import { createInterface } from 'node:readline';
import { geminiHome } from '../config/settings.js';
import { EXIT, FatalInputError } from '../errors.js';
import { safeBlock } from '../safe-text.js';
import {
  installSkills,
  linkSkills,
  type SkillInstallIo,
  type SkillScope,
  uninstallSkill,
} from '../skills/skill-install.js';
import { parse, type SkillsCommandOptions } from './skills-subcommand.js';

/** One answer from stdin (a terminal or a pipe); end of input is no. */
async function confirm(text: string, out: (s: string) => void): Promise<boolean> {
  out(`${text}\nDo you want to continue? [Y/n]: `);
  const rl = createInterface({ input: process.stdin, terminal: false });
  try {
    const line = await new Promise<string | undefined>((res) => {
      rl.once('line', res);
      rl.once('close', () => res(undefined));
    });
    if (line === undefined) return false;
    const t = line.trim().toLowerCase();
    return t === '' || t === 'y' || t === 'yes';
  } finally {
    rl.close();
  }
}

function scopeOf(raw: string | undefined): SkillScope {
  const scope = raw ?? 'user';
  if (scope !== 'user' && scope !== 'workspace')
    throw new FatalInputError(`Invalid --scope "${scope}". Use one of: user, workspace.`);
  return scope;
}

/** `skills install|link|uninstall`; failures are exit 1 with the reason, usage errors 42. */
export async function runSkillInstall(
  sub: 'install' | 'link' | 'uninstall',
  args: string[],
  opts: SkillsCommandOptions,
  out: (s: string) => void,
): Promise<number> {
  const { values, positionals } = parse(args, {
    scope: { type: 'string' },
    path: { type: 'string' },
    consent: { type: 'boolean' },
  });
  const arg = positionals[0];
  if (!arg || positionals.length > 1)
    throw new FatalInputError(
      `Usage: gemini-mcp skills ${sub} <${sub === 'install' ? 'source' : sub === 'link' ? 'path' : 'name'}>`,
    );
  if (values.path !== undefined && sub !== 'install') throw new FatalInputError('--path is only for skills install.');
  const scope = scopeOf(values.scope as string | undefined);
  const io: SkillInstallIo = {
    cwd: opts.cwd,
    home: geminiHome(opts.env ?? process.env),
    log: out,
    confirm: (text) => confirm(text, out),
  };
  const consent = values.consent === true;
  if (sub === 'install') {
    const done = await installSkills({ source: arg, scope, subpath: values.path as string | undefined, consent }, io);
    for (const s of done)
      out(safeBlock(`Successfully installed skill: ${s.name} (scope: ${scope}, location: ${s.location})\n`));
  } else if (sub === 'link') {
    await linkSkills({ path: arg, scope, consent }, io);
    out('\nSuccessfully linked skills.\n');
  } else {
    const location = uninstallSkill(arg, scope, io);
    if (!location) throw new Error(safeBlock(`Skill "${arg}" is not installed in the ${scope} scope.`));
    out(safeBlock(`Successfully uninstalled skill: ${arg} (scope: ${scope}, location: ${location})\n`));
  }
  return EXIT.ok;
}
