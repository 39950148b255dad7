import { resolve } from 'node:path';
import { editJsoncFile, editJsoncText } from '../../config/jsonc-edit.js';
import { parseJsoncObject, readJsoncObject } from '../../config/jsonc-file.js';
import { geminiHome } from '../../config/paths.js';
import { userSettingsPath, workspaceSettingsPath } from '../../config/settings-files.js';
import { SettingsSchema } from '../../config/settings-schema.js';
import { unknownKeyWarnings } from '../../config/unknown-settings.js';
import { PREFERRED_EDITORS } from '../input/preferred-editor.js';
import { chooseTheme } from '../text/theme-names.js';
import type { ChatCommandContext } from './command-context.js';

export const SETTINGS_SET_USAGE =
  'Usage: /settings set KEY VALUE [--workspace]   (e.g. /settings set model.name gemini-2.5-pro)';

/** `true`, `12`, `["a"]` are JSON; anything else is the string as typed. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * `/settings set KEY VALUE [--workspace]`: writes one setting to the user settings file (or the
 * project's), atomically and keeping the file's comments. A key no version of the settings knows, or a
 * value of the wrong type, is refused with the reason and nothing is written.
 */
export function settingsSet(args: string[], ctx: ChatCommandContext) {
  const p = ctx.palette;
  const settings = ctx.session?.runtime.settings;
  if (!settings) return ctx.error('Settings are still loading.');
  const workspace = args.includes('--workspace');
  const [key, ...rest] = args.filter((a) => a !== '--workspace' && a !== '--user');
  if (!key || !rest.length || !/^[A-Za-z$][\w$]*(\.[A-Za-z$][\w$]*)*$/.test(key)) return ctx.error(SETTINGS_SET_USAGE);
  let value = parseValue(rest.join(' '));
  const home = geminiHome(settings.env);
  const file = workspace ? workspaceSettingsPath(ctx.cwd) : userSettingsPath(home);
  if (workspace && resolve(file) === resolve(userSettingsPath(home)))
    return ctx.error('This folder is the home directory: its settings are the user settings (drop --workspace).');
  const path = key.split('.');
  if (key === 'general.preferredEditor' && !PREFERRED_EDITORS.includes(value as string))
    return ctx.error(
      `general.preferredEditor cannot be ${JSON.stringify(value)}: Gemini CLI knows ${PREFERRED_EDITORS.join(', ')}.\nNothing was written.`,
    );
  if (key === 'ui.theme') {
    const theme = themeSetting(value, settings.merged);
    if (typeof theme !== 'string') return ctx.error(theme.error);
    value = theme;
  }
  const nested = path.reduceRight<unknown>((v, k) => ({ [k]: v }), value) as Record<string, unknown>;
  const unknown = unknownKeyWarnings(nested, file);
  if (unknown.length) return ctx.error(`${unknown.join('\n')}\nNothing was written.`);
  let next: Record<string, unknown>;
  try {
    const { text } = readJsoncObject(file);
    // Checked the way the file will be read back, before anything is written.
    next = parseJsoncObject(editJsoncText(text, [{ path, value }]), file);
  } catch (err) {
    return ctx.error(`${(err as Error).message}\nNothing was written.`);
  }
  const check = SettingsSchema.safeParse(next);
  if (!check.success) {
    const issues = check.error.issues.map((i) => `  "${i.path.join('.')}": ${i.message}`);
    return ctx.error([`${key} cannot be ${JSON.stringify(value)}:`, ...issues, 'Nothing was written.'].join('\n'));
  }
  editJsoncFile(file, [{ path, value }]);
  ctx.print(
    `${p.cyan(key)} = ${JSON.stringify(value)} written to the ${workspace ? 'workspace' : 'user'} settings (${file}). ` +
      p.gray('It applies from the next session.'),
  );
}

/**
 * `ui.theme` is read by Gemini CLI too, which refuses a name it does not know: the value becomes the name
 * Gemini CLI spells (`light` → "Default Light"), a theme file path stays as typed, anything else is refused.
 */
function themeSetting(value: unknown, merged: unknown): string | { error: string } {
  const text = typeof value === 'string' ? value : '';
  if (/\.json$|^\.|^\//.test(text)) return text;
  const custom = (merged as { ui?: { customThemes?: unknown } }).ui?.customThemes;
  const choice = chooseTheme(text, custom);
  return choice
    ? choice.setting
    : {
        error: `No theme ${JSON.stringify(value)}: /theme lists the names (Gemini CLI reads ui.theme too).\nNothing was written.`,
      };
}
