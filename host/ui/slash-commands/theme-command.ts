import { editJsoncFile } from '../../config/jsonc-edit.js';
import { geminiHome } from '../../config/paths.js';
import { userSettingsPath } from '../../config/settings-files.js';
import { THEMES } from '../text/palette.js';
import { chooseTheme, GEMINI_THEMES } from '../text/theme-names.js';
import type { ChatCommand } from './command-context.js';

/**
 * `/theme` lists the themes; `/theme NAME` switches now and keeps the choice in the user settings as
 * `ui.theme`. NAME is one of ours (dark, light) or one Gemini CLI knows, drawn with the nearest of ours;
 * what is written is always a name Gemini CLI accepts, since the file is shared with it.
 */
export const themeCommand: ChatCommand = (input, ctx) => {
  const p = ctx.palette;
  const theme = ctx.theme;
  if (!theme) return ctx.error('Themes are not available here.');
  const custom = (ctx.session?.runtime.settings.merged as { ui?: { customThemes?: unknown } } | undefined)?.ui
    ?.customThemes;
  if (!input.rest.trim()) {
    return ctx.print(
      [
        p.bold('Themes'),
        ...THEMES.map((t) => `  ${t === theme.current() ? p.green('●') : ' '} ${t}`),
        p.gray(`Gemini CLI's themes work too, drawn as dark or light: ${Object.keys(GEMINI_THEMES).join(', ')}.`),
        p.gray(
          theme.colour
            ? '/theme NAME switches (kept in ui.theme). NO_COLOR=1 turns colour off.'
            : 'Colour is off (NO_COLOR or a terminal without colours): themes have nothing to change.',
        ),
      ].join('\n'),
    );
  }
  const choice = chooseTheme(input.rest, custom);
  if (!choice)
    return ctx.error(
      `No theme "${input.rest.trim()}": choose ${THEMES.join(' or ')}, or one of Gemini CLI's (/theme lists them).`,
    );
  theme.set(choice.palette);
  const shown = choice.setting === 'Default' || choice.setting === 'Default Light' ? choice.palette : choice.setting;
  const drawn = shown === choice.palette ? '' : ` drawn ${choice.palette}`;
  const env = ctx.session?.runtime.settings.env ?? process.env;
  try {
    editJsoncFile(userSettingsPath(geminiHome(env)), [{ path: ['ui', 'theme'], value: choice.setting }]);
    ctx.print(`Theme ${p.cyan(shown)}${drawn} (kept in the user settings as ui.theme "${choice.setting}").`);
  } catch (err) {
    ctx.print(`Theme ${p.cyan(shown)}${drawn} for this session (not saved: ${(err as Error).message}).`);
  }
};
