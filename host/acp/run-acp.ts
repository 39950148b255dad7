import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { CliArgs } from '../cli-args.js';
import { createAcpAgent } from './agent.js';
import { dropOversizedMessages } from './oversized-messages.js';

/** The largest message the agent reads (the ACP SDK's own default); a larger one is answered with an error. */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * `gemini-mcp --acp`: serves the Agent Client Protocol on stdio (one JSON message per line) until the
 * editor closes stdin, then closes every session — and with them every server process — and exits.
 * stdout belongs to the protocol: anything a library prints with console.log goes to stderr instead.
 */
export async function runAcp(args: CliArgs): Promise<number> {
  const toStderr = (...xs: unknown[]) => void process.stderr.write(`${xs.map(String).join(' ')}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const { app, closeAll } = createAcpAgent(args);
  // Each line is written whole by one write call, the SDK's messages and these answers alike, so they
  // never interleave.
  const tooLarge = (id: string | number | null, bytes: number): void => {
    const message = `Invalid request: the message is ${bytes} bytes, over the ${MAX_MESSAGE_BYTES}-byte limit`;
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`);
  };
  const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    dropOversizedMessages(input, MAX_MESSAGE_BYTES, tooLarge),
    { maxMessageBytes: MAX_MESSAGE_BYTES + 1 },
  );
  const connection = app.connect(stream);
  const stop = (): void => connection.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await connection.closed.catch((e: unknown) => {
    if (args.debug) process.stderr.write(`gemini-mcp: ACP connection ended: ${(e as Error)?.message ?? e}\n`);
  });
  await closeAll();
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
  return 0;
}
