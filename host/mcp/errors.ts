export type McpCallErrorKind =
  | 'timeout'
  | 'cancelled'
  | 'crashed'
  | 'not_connected'
  | 'unknown_server'
  | 'unknown_tool'
  | 'protocol';

/**
 * Why a `tools/call` produced no result. Tool failures are not errors here: they come back as
 * `isError` results. The message is written to be shown to the model and the user as is.
 */
export class McpCallError extends Error {
  /** Set when the server provably never ran the call (it had lost our session), so replaying it is safe. */
  notDelivered = false;

  constructor(
    readonly kind: McpCallErrorKind,
    message: string,
    readonly alias: string,
  ) {
    super(message);
    this.name = kind === 'cancelled' ? 'AbortError' : 'McpCallError';
  }
}

export function withTail(message: string, tail: string): string {
  const t = tail.trim();
  return t ? `${message}\nLast stderr output:\n${t}` : message;
}
