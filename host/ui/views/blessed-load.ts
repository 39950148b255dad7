import { createRequire } from 'node:module';
import type { Widgets } from 'blessed';

/**
 * The two blessed widgets the UI uses, loaded on their own. `import blessed from 'blessed'` costs a
 * large part of startup for two reasons: blessed's index requires all ~35 widgets (images, video,
 * terminal emulation, file manager…), and a CommonJS package imported from ESM has every nested
 * require() go through the ESM loader (cjs-module-lexer pass and package-scope lookup per file) on
 * Node 20.19+. A plain require of the two widget files avoids both.
 */
export interface BlessedWidgets {
  screen(options?: Widgets.IScreenOptions): Widgets.Screen;
  box(options?: Widgets.BoxOptions): Widgets.BoxElement;
}

type CompiledCap = (this: unknown, params: unknown[]) => unknown;

interface TputPrototype {
  _compile(info: unknown, key: string, str: unknown): unknown;
  [LAZY]?: true;
}

interface TputThis {
  debug?: boolean;
  options?: { stringify?: boolean };
}

const LAZY = Symbol.for('gemini-mcp.lazy-tput-compile');

/**
 * blessed's Tput turns every string capability of the terminfo entry (~400 of them) into a JavaScript
 * function with `new Function` while the screen is created, though a session uses a few dozen. Each
 * is compiled on its first call instead; the result is the same function. Capabilities blessed handles
 * specially (file reads, debug output, stringify mode) keep the eager path.
 */
function makeTputCompileLazy(proto: TputPrototype): void {
  if (proto[LAZY]) return;
  proto[LAZY] = true;
  const compile = proto._compile;
  proto._compile = function (this: TputThis, info, key, str) {
    if (
      typeof str !== 'string' ||
      str === '' ||
      key === 'init_file' ||
      key === 'reset_file' ||
      this.debug ||
      this.options?.stringify
    ) {
      return compile.call(this, info, key, str);
    }
    let fn: CompiledCap | undefined;
    const tput = this;
    return function (this: unknown, params: unknown[]) {
      if (!fn) {
        try {
          fn = compile.call(tput, info, key, str) as CompiledCap;
        } catch {
          // A capability blessed cannot compile writes nothing rather than breaking the screen.
          fn = () => '';
        }
      }
      return fn.call(this, params);
    };
  };
}

/** require() caches the modules, so repeated calls are cheap. */
export function loadBlessed(): BlessedWidgets {
  const req = createRequire(import.meta.url);
  makeTputCompileLazy((req('blessed/lib/tput.js') as { prototype: TputPrototype }).prototype);
  // Each widget module exports a constructor that also works when called without `new`.
  return {
    screen: req('blessed/lib/widgets/screen.js') as BlessedWidgets['screen'],
    box: req('blessed/lib/widgets/box.js') as BlessedWidgets['box'],
  };
}
