import { toolFor } from '../../tools/builtin-catalogue.js';
import { exposedName } from '../../tools/naming.js';
import type { ChatCommand, ChatCommandContext } from './command-context.js';

const USAGE = 'Usage: /tasks lists the background commands; /tasks PID shows the latest output of one.';

/**
 * `/tasks` (Gemini CLI 0.61's name, also `/bg` and `/background`): the background commands the model
 * started. They live in the shell server, so its own tools answer: `/tasks` lists them, `/tasks PID`
 * shows one's last lines. Gemini CLI toggles a panel; ours prints the answer as a card.
 */
export const tasksCommand: ChatCommand = async (input, ctx) => {
  if (input.args.length === 0) return ctx.runTool(shellTool(ctx, 'list_background_processes'), {});
  const pid = Number(input.args[0]);
  if (input.args.length > 1 || !Number.isSafeInteger(pid) || pid <= 0) return ctx.error(USAGE);
  return ctx.runTool(shellTool(ctx, 'read_background_output'), { pid });
};

/** The exposed name of the tool playing the built-in's part (the built-in's own while the registry starts). */
function shellTool(ctx: ChatCommandContext, tool: string): string {
  return toolFor(ctx.runtime?.registry.list() ?? [], tool)?.exposedName ?? exposedName('shell', tool);
}
