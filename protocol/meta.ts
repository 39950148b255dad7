/**
 * The `_meta` key prefix shared by our servers and the host (contract `<ns>`), so that both sides
 * spell the keys one way.
 */
export const NS = 'dev.gemini-mcp-cli';

export const META = {
  /** Tool `_meta`: the tool asks the client in-call through elicitation before any side effect. */
  confirms: `${NS}/confirms`,
  /** Tool `_meta`: the largest result the tool produces on purpose (host truncation threshold hint). */
  maxResultSizeChars: `${NS}/maxResultSizeChars`,
  /**
   * Tool `_meta`: the tool runs what it is given inside an OS sandbox (writes only in the workspace,
   * secrets hidden, network off or allow-listed); the host may confirm it less and shows it.
   */
  sandboxed: `${NS}/sandboxed`,
  /** Call `_meta`: the host's id for this call, echoed in the elicitation so the host can match it. */
  callId: `${NS}/callId`,
  /** Call `_meta`: the host's policy already allowed this call; skip the elicitation. */
  preapproved: `${NS}/preapproved`,
  /**
   * Call `_meta`: `{ cols, rows }` — a person is at a terminal of this size and can type into what the call
   * runs. The shell then runs a command in a pseudo-terminal (and does not stop it when it waits for input);
   * absent, nobody can type, and a command that waits for input is stopped.
   */
  terminal: `${NS}/terminal`,
  /**
   * Progress notification `_meta`: `{ pid, data }`, the raw bytes (escape sequences included) a command run
   * in a pseudo-terminal wrote since the last notification, and the pid to send keystrokes to
   * (`write_to_shell`). Sent only to a caller that gave `terminal`; the notification's `message` is plain text.
   */
  terminalOutput: `${NS}/terminalOutput`,
  /** Elicitation `_meta`: the typed confirmation detail. */
  confirmation: `${NS}/confirmation`,
  /**
   * Elicitation result `_meta`: the client declined the form because nobody is there to answer it (a
   * headless run, an editor without forms), not because a user said no.
   */
  noUser: `${NS}/noUser`,
  /** Result `_meta`: the error class of an `isError` result. */
  errorType: `${NS}/errorType`,
  /** Result `_meta`: the user-facing summary (string or file diff object). */
  display: `${NS}/display`,
  /**
   * Resource result `_meta`: every path whose presence, size or mtime decides this text (absent paths
   * included); a client may reuse the text without asking again while none of them changed.
   */
  resourceInputs: `${NS}/resourceInputs`,
  /**
   * Shell result `_meta`: `{ output, exitCode, signal, aborted }` of the command as run (output untruncated,
   * unwrapped), for a client that inserts it elsewhere (custom commands' `!{…}`).
   */
  shellOutcome: `${NS}/shellOutcome`,
  /**
   * Result `_meta`: the server already cut this result's text for the model and saved the whole output at
   * this path. The host (for its own servers) cuts nothing again and links the card to this file.
   */
  outputFile: `${NS}/outputFile`,
} as const;
