import type { App } from '../views/app.js';
import type { ChatCommandContext } from './command-context.js';
import type { Controller } from '../controller.js';
import { historyItems } from '../views/history-view.js';
import { browseSessions } from '../views/session-browser.js';
import { pickFromList } from '../views/list-picker.js';

/** The command context for one slash command, over the controller's session and the screen. */
export function buildCommandContext(c: Controller, app: App, cwd: string): ChatCommandContext {
  return {
    palette: app.palette,
    cwd,
    print: (t) => c.print(t),
    error: (t) => c.error(t),
    session: c.session,
    runtime: c.runtime,
    stats: c.runStats,
    debugLog: app.debugLog,
    startedAt: c.runStats.started,
    showHistory: (history) => {
      app.conv.clear();
      for (const item of historyItems(history)) app.conv.add(item);
      app.requestRender();
    },
    recorder: () => c.recorder,
    setRecorder: (r) => {
      c.recorder = r;
    },
    submitPrompt: (text) => void c.sendToModel(text),
    runTool: async (name, args) => void (await c.runPassive(name, args)),
    setModelLabel: (model) => {
      app.status.model = model;
      app.requestRender();
    },
    browseSessions: (sessions, current) => browseSessions(app, sessions, current),
    pick: (title, items, initial) => pickFromList(app, title, items, initial),
    editInput: () => app.editInput(),
    confirm: (question) => app.ask(question),
    toggleVim: () => app.toggleVim(),
    theme: { current: () => app.theme, set: (name) => app.setTheme(name), colour: app.palette.depth > 0 },
    setInput: (text) => {
      app.editor.set(text);
      app.requestRender();
    },
    writeTerminal: (seq) => void app.screen.program.output.write(seq),
    busy: async (label, fn) => {
      const ac = new AbortController();
      const stop = () => ac.abort(new Error('cancelled'));
      c.onCancel = stop;
      app.setBusy(label);
      try {
        return await fn(ac.signal);
      } finally {
        c.onCancel = undefined;
        app.setBusy(undefined);
      }
    },
  };
}
