import { editJsoncFile } from '../../config/jsonc-edit.js';
import { geminiHome } from '../../config/paths.js';
import { userSettingsPath } from '../../config/settings-files.js';
import { THEMES, type ThemeName } from '../text/palette.js';
import type { ChatCommand } from './command-context.js';

/**
 * `/theme` lists the themes; `/theme dark|light` switches now and keeps the choice in the user settings
 * (`ui.theme`, Gemini CLI's key: its "… Light" themes read as light). NO_COLOR turns colour off entirely.
 */
export const themeCommand: ChatCommand = (input, ctx) => {
  const p = ctx.palette;
  const theme = ctx.theme;
  if (!theme) return ctx.error('Themes are not available here.');
  const name = input.args[0]?.toLowerCase();
  if (!name) {
    return ctx.print(
      [
        p.bold('Themes'),
        ...THEMES.map((t) => `  ${t === theme.current() ? p.green('●') : ' '} ${t}`),
        p.gray(
          theme.colour
            ? '/theme NAME switches (kept in ui.theme). NO_COLOR=1 turns colour off.'
            : 'Colour is off (NO_COLOR or a terminal without colours): themes have nothing to change.',
        ),
      ].join('\n'),
    );
  }
  if (!(THEMES as readonly string[]).includes(name))
    return ctx.error(`No theme "${input.args[0]}": choose ${THEMES.join(' or ')}.`);
  theme.set(name as ThemeName);
  const env = ctx.session?.runtime.settings.env ?? process.env;
  try {
    editJsoncFile(userSettingsPath(geminiHome(env)), [{ path: ['ui', 'theme'], value: name }]);
    ctx.print(`Theme ${p.cyan(name)} (kept in the user settings as ui.theme).`);
  } catch (err) {
    ctx.print(`Theme ${p.cyan(name)} for this session (not saved: ${(err as Error).message}).`);
  }
};
