/**
 * The largest JSON-RPC message a server accepts, on stdio (one line) and over HTTP (one body). Large
 * enough for a multi-megabyte file written through a tool; anything bigger gets an error and is dropped.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
