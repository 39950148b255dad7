import { createRequire } from 'node:module';
import v8 from 'node:v8';
import type { Parser } from 'web-tree-sitter';

/**
 * tree-sitter-bash through web-tree-sitter. Loading the two wasm modules costs tens of
 * milliseconds, so it happens on first use and once per process: the cached promise is the
 * process-wide, immutable parser (the Language is read-only and `parse` is synchronous, so sharing
 * one Parser between concurrent callers cannot interleave). A failed load is not cached, so a
 * later call retries instead of failing forever.
 */
let parserPromise: Promise<Parser> | undefined;

export function getBashParser(): Promise<Parser> {
  if (!parserPromise) {
    const require = createRequire(import.meta.url);
    parserPromise = (async () => {
      // The grammar's wasm is large: V8's optimising tier spends about a CPU second compiling it in
      // background threads after the first parse, and process exit waits for that (seconds on a busy
      // machine, for server and host alike). The baseline compiler parses a command line in
      // microseconds anyway. The flag is process-wide; nothing else here runs wasm.
      v8.setFlagsFromString('--liftoff-only');
      // Required here, not imported at the top: the host imports this module for its policy and hooks,
      // and loading web-tree-sitter's JavaScript (~4 ms) delayed every start, shell command or not.
      const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');
      await Parser.init({ locateFile: () => require.resolve('web-tree-sitter/web-tree-sitter.wasm') });
      const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
      const parser = new Parser();
      parser.setLanguage(bash);
      return parser;
    })();
    parserPromise.catch(() => (parserPromise = undefined));
  }
  return parserPromise;
}

/**
 * A command line that takes the grammar through words, quoting, expansions, substitutions, pipes, lists
 * and redirections: the first parse of each kind runs code nothing has run yet.
 */
export const WARM_UP_COMMAND = `cd "$HOME/src" && FOO=1 git -C . diff --stat -- 'a b' | grep -v "$(echo x)" >/dev/null 2>&1 || echo $((1 + 2)) <<< done; ls *.ts`;

/**
 * Warms the parser up (the server does it at start so the first call does not pay for it): loads the
 * grammar and parses one command line, since a first parse costs ~9 ms more than the next ones.
 */
export function preloadBashParser(): Promise<void> {
  return getBashParser().then((parser) => void parser.parse(WARM_UP_COMMAND)?.delete());
}
