/**
 * The CLI's one error and exit-code model. A failure that ends a run is a `FatalError` carrying its exit
 * code and the type name the json outputs report; anything else exits 1.
 */
export const EXIT = {
  ok: 0,
  error: 1,
  auth: 41,
  input: 42,
  sandbox: 44,
  config: 52,
  turnLimit: 53,
  cancelled: 130,
  /** The reader of our output went away (`… | head -c 5`): ended quietly, as SIGPIPE would. */
  closedPipe: 141,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class FatalError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** The error type json and stream-json outputs report. */
    readonly type: string,
  ) {
    super(message);
    this.name = type;
  }
}

/** Missing, refused or unusable credentials. */
export class FatalAuthenticationError extends FatalError {
  constructor(message: string) {
    super(message, EXIT.auth, 'FatalAuthenticationError');
  }
}

/** Bad command-line input or a usage mistake. */
export class FatalInputError extends FatalError {
  constructor(message: string) {
    super(message, EXIT.input, 'FatalInputError');
  }
}

/** The sandbox asked for (`-s`, GEMINI_SANDBOX, `tools.sandbox`) cannot be built here. */
export class FatalSandboxError extends FatalError {
  constructor(message: string) {
    super(message, EXIT.sandbox, 'FatalSandboxError');
  }
}

/** Settings that cannot be used (unparsable file, wrong type, bad server entry). */
export class FatalConfigError extends FatalError {
  constructor(message: string) {
    super(message, EXIT.config, 'FatalConfigError');
  }
}

/** The session or per-prompt turn limit was reached. */
export class FatalTurnLimitedError extends FatalError {
  constructor(message: string) {
    super(message, EXIT.turnLimit, 'FatalTurnLimitedError');
  }
}

/** The user cancelled (Ctrl-C, SIGINT). */
export class FatalCancellationError extends FatalError {
  constructor(message = 'Operation cancelled.') {
    super(message, EXIT.cancelled, 'FatalCancellationError');
  }
}

/** A failure the run ends with that has no exit code of its own (model API errors, loops): exit 1. */
export class RunError extends FatalError {
  constructor(message: string, type = 'Error') {
    super(message, EXIT.error, type);
  }
}

/** Any thrown value as a FatalError: fatal ones keep their class, everything else becomes exit 1. */
export function asFatal(err: unknown): FatalError {
  if (err instanceof FatalError) return err;
  return new RunError(err instanceof Error ? err.message : String(err));
}
