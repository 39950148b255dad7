import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

/**
 * Regular expressions written by users (policy `argsPattern` / `commandRegex`, hook matchers) or sent by
 * servers (an elicitation field's `pattern`), run by RE2 (re2js): time linear in the input whatever the
 * pattern, so `(a+)+$` cannot stall the host on a crafted argument the way a backtracking RegExp does.
 * RE2 has no lookaround or backreferences; such a pattern fails to compile, and the caller refuses it.
 */
export interface UserPattern {
  readonly source: string;
  /** True when the pattern matches somewhere in the text (RegExp.prototype.test's meaning). */
  test(text: string): boolean;
}

// Loaded on first use (~10 ms): a run with no pattern configured does not pay for it.
let re2: typeof RE2JS | undefined;
function engine(): typeof RE2JS {
  re2 ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return re2;
}

/** Compiles a pattern; throws an Error saying why when RE2 cannot run it. */
export function compileUserPattern(source: string): UserPattern {
  let compiled: RE2JS;
  try {
    const re2 = engine();
    // Patterns are written for JavaScript (Gemini CLI runs them as RegExp): `\u0000`, `\cA` and the like are
    // turned into RE2's spelling first.
    compiled = re2.compile(re2.translateRegExp(source));
  } catch (err) {
    // re2js says "error parsing regexp: invalid or unsupported Perl syntax: `(?=`".
    throw new Error(`${(err as Error).message} (patterns run in RE2: no lookaround or backreferences)`);
  }
  return { source, test: (text) => compiled.test(text) };
}

/** The compiled pattern, or undefined when RE2 cannot run it. */
export function tryUserPattern(source: string): UserPattern | undefined {
  try {
    return compileUserPattern(source);
  } catch {
    return undefined;
  }
}
