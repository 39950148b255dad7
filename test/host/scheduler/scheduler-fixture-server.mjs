#!/usr/bin/env node
// A small server of ours for scheduler tests: ordering barriers, a call that waits for cancellation,
// large output, media, and an in-call confirmation. Built on the kit's sources, bundled by the tests that spawn it.
import { appendFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { createKitServer } from '../../../servers/common/create-server.js';
import { runServerMain } from '../../../servers/common/entry.js';
import { META } from '../../../protocol/meta.js';
import { READ_ONLY } from '../../../servers/common/tool.js';
import { cancelledResult, textResult } from '../../../servers/common/result.js';

const MUTATING = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
const sleep = (ms, signal) =>
  new Promise((r) => {
    const t = setTimeout(r, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      r();
    });
  });

function tools(logFile) {
  const log = (line) => logFile && appendFileSync(logFile, `${line}\n`);
  const arrived = new Map();
  return [
    {
      name: 'barrier_read',
      title: 'Barrier read',
      description: 'Returns once `peers` calls with the same group have started.',
      inputSchema: z.object({ group: z.string(), id: z.string(), peers: z.number().int() }),
      annotations: READ_ONLY,
      handler: async ({ group, id, peers }) => {
        log(`start:${id}`);
        arrived.set(group, (arrived.get(group) ?? 0) + 1);
        const deadline = Date.now() + 8000;
        while ((arrived.get(group) ?? 0) < peers && Date.now() < deadline) await sleep(10);
        log(`end:${id}`);
        return textResult((arrived.get(group) ?? 0) >= peers ? `together:${id}` : `alone:${id}`);
      },
    },
    {
      name: 'mutate',
      title: 'Mutate',
      description: 'Logs start and end around a short wait.',
      inputSchema: z.object({ id: z.string() }),
      annotations: MUTATING,
      handler: async ({ id }) => {
        log(`start:${id}`);
        await sleep(30);
        log(`end:${id}`);
        return textResult(`done:${id}`);
      },
    },
    {
      name: 'hang',
      title: 'Hang',
      description: 'Waits until cancelled, then writes a marker file.',
      inputSchema: z.object({ marker: z.string() }),
      annotations: READ_ONLY,
      handler: async ({ marker }, ctx) => {
        log('start:hang');
        await new Promise((resolve) => {
          if (ctx.signal.aborted) resolve();
          ctx.signal.addEventListener('abort', resolve);
        });
        writeFileSync(marker, 'cancelled');
        return textResult('should not be seen');
      },
    },
    {
      name: 'big',
      title: 'Big',
      description: 'Returns `size` characters.',
      inputSchema: z.object({ size: z.number().int() }),
      annotations: READ_ONLY,
      handler: async ({ size }) =>
        textResult('H'.repeat(Math.floor(size / 2)) + 'T'.repeat(size - Math.floor(size / 2))),
    },
    {
      name: 'big_declared',
      title: 'Big declared',
      description: 'Returns `size` characters; declares a larger maximum.',
      inputSchema: z.object({ size: z.number().int() }),
      annotations: READ_ONLY,
      meta: { [META.maxResultSizeChars]: 100_000 },
      handler: async ({ size }) => textResult('x'.repeat(size)),
    },
    {
      name: 'media',
      title: 'Media',
      description: 'Returns text, an image, a PDF resource and a link.',
      inputSchema: z.object({}),
      annotations: READ_ONLY,
      handler: async () => ({
        content: [
          { type: 'text', text: 'see attached' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
          { type: 'resource_link', uri: 'file:///b.txt', name: 'b.txt' },
        ],
      }),
    },
    {
      name: 'fail',
      title: 'Fail',
      description: 'Always fails.',
      inputSchema: z.object({}),
      annotations: READ_ONLY,
      handler: async () => ({
        content: [{ type: 'text', text: 'it broke' }],
        isError: true,
        _meta: { [META.errorType]: 'execution_failed' },
      }),
    },
    {
      name: 'confirm_exec',
      title: 'Confirm exec',
      description: 'Asks to run a command, then logs it.',
      inputSchema: z.object({ command: z.string() }),
      annotations: MUTATING,
      meta: { [META.confirms]: true },
      handler: async ({ command }, ctx) => {
        const outcome = await ctx.confirm(
          { kind: 'exec', title: 'Confirm Shell Command', command, rootCommands: [command.split(' ')[0]] },
          `Confirm Shell Command\n\n${command}`,
        );
        if (outcome.decision === 'cancel') return cancelledResult();
        log(`ran:${command}`);
        return textResult(`ran:${command}`);
      },
    },
  ];
}

await runServerMain({
  name: 'scheduler-fixture',
  options: { log: { type: 'string' } },
  create: (flags, values, log) =>
    createKitServer({ name: 'scheduler-fixture', version: '1.0.0', tools: tools(values.log), log, roots: flags.roots }),
});
