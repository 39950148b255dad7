import { editJsoncFile } from '../../config/jsonc-edit.js';
import { geminiHome } from '../../config/paths.js';
import { userSettingsPath } from '../../config/settings-files.js';
import type { ChatCommand } from './command-context.js';

const ON =
  'Vim mode on: Esc for normal mode (h l w b e 0 $ x dw cw dd cc D C i a I A o, j k history), Enter sends. /vim again turns it off.';

/**
 * `/vim` turns vi keys in the input on or off and, as Gemini CLI does, keeps the choice in the user
 * settings (`general.vimMode`), so the next chat starts the same way.
 */
export const vimCommand: ChatCommand = (_input, ctx) => {
  if (!ctx.toggleVim) return ctx.error('Vim mode is not available here.');
  const on = ctx.toggleVim();
  const env = ctx.session?.runtime.settings.env ?? process.env;
  let saved = ' (kept in the user settings as general.vimMode).';
  try {
    editJsoncFile(userSettingsPath(geminiHome(env)), [{ path: ['general', 'vimMode'], value: on }]);
  } catch (err) {
    saved = ` (for this session; not saved: ${(err as Error).message}).`;
  }
  ctx.print(on ? `${ON}${saved}` : `Vim mode off${saved}`);
};
