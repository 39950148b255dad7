import type { App } from '../views/app.js';
import type { Item } from '../views/conversation.js';
import { showDebugLog } from '../views/debug-log.js';
import { applyEditKey, isNewlineKey, type KeyInfo } from './edit-keys.js';

const DOUBLE_CTRL_C_MS = 2000;
const DOUBLE_ESC_MS = 800;

/** The chat's keys when no dialog is open: send, cancel, history, completion, scrolling, editing. */
export class ChatKeys {
  private ctrlCAt = 0;
  private escAt = 0;
  private logView?: Item;

  constructor(private readonly app: App) {}

  handle(ch: string | undefined, key: KeyInfo): void {
    const app = this.app;
    const name = key.name ?? '';
    // Vi keys first (when on), except while a turn runs or messages wait: then Esc cancels as usual.
    if (app.vim && !app.busy && !app.queued.length && app.vim.handle(ch, key)) {
      app.status.vim = app.vim.mode === 'normal' ? 'NORMAL' : 'INSERT';
      app.requestRender();
      return;
    }
    // Sending, cancelling or clearing ends the live list; typing recomputes it (below).
    if (app.suggestions && (name === 'return' || name === 'escape' || (key.ctrl && name === 'c'))) {
      app.suggestions = undefined;
      app.requestRender();
      if (name === 'escape') return;
    }
    if (key.ctrl && name === 'c') this.ctrlC();
    else if (name === 'escape') {
      if (app.queued.length) app.takeBackQueued();
      else if (app.busy) app.handlers?.cancel();
      else if (app.editor.text === '') {
        // Esc Esc on an empty prompt: the rewind list (Gemini CLI's shortcut).
        if (Date.now() - this.escAt < DOUBLE_ESC_MS) {
          this.escAt = 0;
          app.handlers?.submit('/rewind');
        } else this.escAt = Date.now();
      }
    } else if (name === 'tab' && key.shift) app.handlers?.cycleApprovalMode();
    else if (key.ctrl && name === 'y') app.handlers?.toggleYolo();
    else if (key.ctrl && name === 'g') void app.editInput();
    else if (key.ctrl && name === 'v') void app.pasteImage();
    // One match: Tab completes it (with the space after it) as before; several: Tab cycles through them.
    else if (name === 'tab' && (app.suggestions?.items.length ?? 0) > 1) this.cycleSuggestion(1);
    else if ((name === 'up' || name === 'down') && app.suggestions) this.cycleSuggestion(name === 'up' ? -1 : 1);
    else if (name === 'tab') {
      app.suggestions = undefined;
      this.complete();
    } else if (isNewlineKey(key)) this.insert('\n');
    else if (name === 'return') this.enter();
    else if (name === 'up' || name === 'down') this.upDown(name === 'up' ? -1 : 1);
    else if (name === 'pageup' || name === 'pagedown') {
      app.layout.page(name === 'pageup' ? -1 : 1);
      app.screen.render();
    } else if (key.ctrl && name === 't') {
      app.conv.showThoughts = !app.conv.showThoughts;
      app.conv.invalidateAll();
      app.requestRender();
    } else if (key.ctrl && name === 'o') {
      app.conv.expandTools = !app.conv.expandTools;
      app.conv.invalidateAll();
      app.requestRender();
    } else if (name === 'f12') {
      // A toggle: the second press closes the view the first one opened.
      if (!this.logView || !app.conv.remove(this.logView)) {
        this.logView = { kind: 'info', text: showDebugLog(app.debugLog, app.palette) };
        app.conv.add(this.logView);
      } else this.logView = undefined;
      app.requestRender();
    } else if (key.ctrl && name === 'l') {
      app.screen.realloc();
      app.renderNow();
    } else if (applyEditKey(app.editor, ch, key)) {
      app.history.reset();
      app.refreshSuggestions();
      app.requestRender();
    }
  }

  /** Tab and ↑/↓ while the list shows: the next (or previous) command goes into the input. */
  private cycleSuggestion(step: 1 | -1): void {
    const app = this.app;
    const s = app.suggestions!;
    s.selected = (s.selected + step + s.items.length) % s.items.length;
    app.editor.set(s.items[s.selected]!.value);
    app.requestRender();
  }

  private ctrlC(): void {
    const app = this.app;
    const now = Date.now();
    if (app.busy) app.handlers?.cancel();
    else if (app.editor.text !== '') {
      app.editor.clear();
      app.history.reset();
      app.requestRender();
    } else if (now - this.ctrlCAt < DOUBLE_CTRL_C_MS) app.handlers?.exit();
    else {
      this.ctrlCAt = now;
      app.flash(app.palette.yellow('Press Ctrl-C again to exit.'), DOUBLE_CTRL_C_MS);
    }
  }

  private complete(): void {
    const { app } = this;
    const r = app.handlers?.complete(app.editor.text, app.editor.cursor);
    if (r) {
      app.editor.set(r.text, r.cursor);
      if (r.hint) app.flash(r.hint, 4000);
    }
    app.requestRender();
  }

  private enter(): void {
    const { app } = this;
    const ed = app.editor;
    if (ed.text.endsWith('\\') && ed.cursor === ed.text.length) {
      ed.backspace();
      this.insert('\n');
      return;
    }
    const text = ed.text;
    if (text.trim() === '') return;
    ed.clear();
    if (app.vim) {
      app.vim.mode = 'insert';
      app.status.vim = 'INSERT';
    }
    app.history.add(text);
    app.layout.stickBottom = true;
    app.requestRender();
    app.handlers?.submit(text);
  }

  upDown(dir: -1 | 1): void {
    const { app } = this;
    const ed = app.editor;
    if (dir < 0 && app.queued.length && ed.text === '') {
      app.takeBackQueued();
      return;
    }
    if (!ed.moveLine(dir)) {
      const entry = dir < 0 ? app.history.prev(ed.text) : app.history.next();
      if (entry !== undefined) ed.set(entry);
    }
    app.requestRender();
  }

  private insert(s: string): void {
    this.app.editor.insert(s);
    this.app.requestRender();
  }
}
