import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { wrapUntrusted } from '../../protocol/tool-result.js';
import { textResult, userCancelled } from '../common/result.js';
import type { BackgroundJob, BackgroundJobs, StartRequest } from './background-jobs.js';
import type { ExecOutcome } from './output.js';
import { groupMembers } from './process-group.js';

/** Gemini CLI's wait before a command counts as started in the background. */
export const BACKGROUND_DELAY_MS = 200;
/** A model's `delay_ms` cannot hold the turn longer than this. */
const MAX_DELAY_MS = 30_000;
/** After the leader exits, how long output still in the pipe may take to arrive. */
const DRAIN_MAX_MS = 1000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/**
 * Runs `is_background` commands the way Gemini CLI does: start, wait a moment to catch an immediate
 * failure, and answer with the pid while the job goes on. A command that already ended in that moment
 * gets the ordinary result (`finish`), as in Gemini CLI.
 */
export async function startInBackground(
  jobs: BackgroundJobs,
  req: StartRequest,
  delayMs: number | undefined,
  signal: AbortSignal,
  finish: (outcome: ExecOutcome) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const started = await jobs.start(req);
  if (!('status' in started)) return finish(started);
  const job = started;
  const aborted = new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.race([job.exited, aborted, sleep(Math.min(delayMs ?? BACKGROUND_DELAY_MS, MAX_DELAY_MS))]);
  if (signal.aborted) {
    await jobs.stop(job);
    throw userCancelled();
  }
  if (job.status === 'exited') return finish(await endedOutcome(jobs, job));
  const initial = job.output.tail().trim();
  return textResult(
    wrapUntrusted(`Command is running in background. PID: ${job.pid}. Initial output:\n${initial}`),
    `Background process started with PID ${job.pid}.`,
  );
}

/** A job that ended within the delay, as a foreground command's outcome; it is no background job then. */
async function endedOutcome(jobs: BackgroundJobs, job: BackgroundJob): Promise<ExecOutcome> {
  await Promise.race([job.closed, sleep(DRAIN_MAX_MS)]);
  const left = groupMembers(job.pid).filter((p) => p !== job.pid);
  // Something it started still runs: it stays listed, so the model can read and stop it.
  if (left.length === 0) jobs.forget(job.pid);
  return {
    output: job.output.tail().trim(),
    exitCode: job.exitCode ?? null,
    signal: job.signal ?? null,
    pgid: job.pid,
    backgroundPids: left,
    timedOut: false,
    aborted: false,
  };
}
