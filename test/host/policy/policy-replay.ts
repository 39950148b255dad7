import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { collect, ONLY, spawnHost, type Workspace, workspace } from '../../helpers/run-host.js';

/** One recorded model turn, as Gemini CLI's --record-responses writes it. */
export const turn = (parts: object[]) => ({
  method: 'generateContentStream',
  response: [
    {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    },
  ],
});
export const shell = (id: string, command: string) => ({
  functionCall: { id, name: 'run_shell_command', args: { command } },
});

export interface ToolResult {
  tool_id: string;
  status: string;
  output?: string;
  error?: { message?: string };
}

/**
 * A headless run (`gemini-mcp -p … -o stream-json`) whose model makes the given calls in one turn, replayed
 * with --fake-responses against the real servers; returns the run and its tool results by call id.
 */
export async function replay(ws: Workspace, calls: object[], flags: string[] = []) {
  const rec = join(ws.home, 'recorded.jsonl');
  const lines = [turn(calls), turn([{ text: 'Done.' }])];
  writeFileSync(rec, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const child = spawnHost(['-p', 'go', '-o', 'stream-json', '--fake-responses', rec, ...flags], { ws });
  // A host stuck in a pattern must not outlive its test.
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const r = await collect(child).done;
  const events = r.stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  const results: Record<string, ToolResult> = Object.fromEntries(
    events.filter((e) => e.type === 'tool_result').map((e) => [e.tool_id, e]),
  );
  return { r, results };
}

/** A project with files the calls may (or must not) remove. */
export function project(...files: string[]): Workspace {
  const ws = workspace();
  ws.settings(ONLY('shell', 'filesystem'));
  for (const f of files) ws.file(f, `${f}\n`);
  return ws;
}

export const policy = (ws: Workspace, name: string, text: string) => {
  const p = join(ws.home, name);
  writeFileSync(p, text);
  return p;
};

export const DENY_RM =
  '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 100\n';
