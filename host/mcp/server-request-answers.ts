import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import {
  ReadTextFileRequestSchema,
  WriteTextFileRequestSchema,
  type EditorFiles,
} from '../../protocol/editor-files.js';
import { editorPathRefusal } from './editor-path.js';

/** What the host answers when a server asks: its roots, a form or confirmation, a sampling request, the editor's files. */
export interface ServerRequestAnswers {
  roots(): string[];
  elicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  sample(params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult>;
  /** The editor's files, lent to this server (our own servers only, under an ACP editor). */
  editorFiles?: EditorFiles;
}

/** Sets the client's handlers for the requests a server may send (server-requests.ts routes them per server). */
export function answerServerRequests(client: Client, answers: ServerRequestAnswers): void {
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: answers.roots().map((r) => ({ uri: pathToFileURL(r).href, name: basename(r) || r })),
  }));
  client.setRequestHandler(ElicitRequestSchema, (req, extra) => answers.elicit(req.params, extra.signal));
  client.setRequestHandler(CreateMessageRequestSchema, (req, extra) => answers.sample(req.params, extra.signal));
  const files = answers.editorFiles;
  // The server checked the path, but the host answers for what reaches the editor: a path whose real
  // path left the roots (a symlink swapped in after the server's check) is refused here too.
  const allowed = (path: string) => {
    const refusal = editorPathRefusal(path, answers.roots());
    if (refusal) throw new McpError(ErrorCode.InvalidParams, refusal);
  };
  if (files?.readTextFile) {
    const read = files.readTextFile.bind(files);
    client.setRequestHandler(ReadTextFileRequestSchema, async (req, extra) => {
      allowed(req.params.path);
      return { content: await read(req.params.path, extra.signal) };
    });
  }
  if (files?.writeTextFile) {
    const write = files.writeTextFile.bind(files);
    client.setRequestHandler(WriteTextFileRequestSchema, async (req, extra) => {
      allowed(req.params.path);
      await write(req.params.path, req.params.content, extra.signal);
      return {};
    });
  }
}
