import { constants } from 'node:os';
import { ToolError } from '../common/result.js';
import { type Confine, prepareLaunch, spawnLaunch, userFacing } from './execute.js';
import { JobOutput } from './job-output.js';
import type { ExecOutcome } from './output.js';
import { groupMembers, type GroupRegistry } from './process-group.js';

/** Gemini CLI's statuses: a job runs until its leader process exits. */
export type JobStatus = 'running' | 'exited';

export interface BackgroundJob {
  /** The leader's pid, which is also the job's process group id. */
  pid: number;
  command: string;
  status: JobStatus;
  exitCode?: number;
  /** Signal number, when a signal ended the leader. */
  signal?: number;
  startTime: number;
  output: JobOutput;
  /** Resolves when the leader exited. */
  exited: Promise<void>;
  /** Resolves when the output pipe closed (every process holding it is gone). */
  closed: Promise<void>;
}

export interface StartRequest {
  command: string;
  cwd: string;
  gitDirs?: string[];
  confine?: Confine;
}

/** As many jobs as Gemini CLI remembers per session; the oldest finished one makes room. */
export const DEFAULT_MAX_JOBS = 100;

/**
 * The background jobs of one server instance (one MCP session). Each is a process group registered in
 * the server's GroupRegistry, so closing the session, shutting down or the server dying ends it with
 * everything it started; its output is kept here, bounded, for `read_background_output`.
 */
export class BackgroundJobs {
  private readonly jobs = new Map<number, BackgroundJob>();

  constructor(
    private readonly groups: GroupRegistry,
    /** Jobs remembered, and jobs running at once. */
    private readonly max = DEFAULT_MAX_JOBS,
  ) {}

  list(): BackgroundJob[] {
    return [...this.jobs.values()];
  }

  /**
   * The session's job of that pid, or the tool failure Gemini CLI 0.61 answers for any other pid (another
   * session's job, a process that is no job): the same words whichever, so nothing leaks about other pids.
   */
  ofSession(pid: number): BackgroundJob {
    const job = this.get(pid);
    if (!job)
      throw new ToolError(
        `Access denied. Background process ID ${pid} not found in this session's history.`,
        'execution_failed',
        'Access denied.',
      );
    return job;
  }

  get(pid: number): BackgroundJob | undefined {
    return this.jobs.get(pid);
  }

  /** Forgets a job whose processes are all gone (it finished before it was ever in the background). */
  forget(pid: number): void {
    if (groupMembers(pid).length === 0) this.jobs.delete(pid);
  }

  /** Starts the command as its own process group with stdin closed; a failure to start is an outcome. */
  async start(req: StartRequest): Promise<BackgroundJob | ExecOutcome> {
    if (this.list().filter((j) => j.status === 'running').length >= this.max) {
      return notStarted(`Too many background processes are running (${this.max}); stop one first.`);
    }
    const launch = await prepareLaunch(req);
    if ('output' in launch) return launch;
    const child = spawnLaunch(launch);
    if ('output' in child) return child;
    const pid = child.pid;
    if (pid === undefined) {
      const err = await new Promise<Error>((resolve) => child.once('error', resolve));
      await launch.cleanup?.().catch(() => undefined);
      return {
        output: '',
        error: userFacing(err.message),
        exitCode: null,
        signal: null,
        backgroundPids: [],
        timedOut: false,
        aborted: false,
      };
    }
    this.groups.add(pid);
    const output = new JobOutput();
    const onData = (chunk: Buffer) => output.push(chunk);
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    const job: BackgroundJob = {
      pid,
      command: req.command,
      status: 'running',
      startTime: Date.now(),
      output,
      exited: new Promise((resolve) =>
        child.once('exit', (code, signal) => {
          job.status = 'exited';
          if (code !== null) job.exitCode = code;
          if (signal) job.signal = constants.signals[signal];
          resolve();
        }),
      ),
      closed: new Promise((resolve) =>
        child.once('close', () => {
          // The group stays registered (and so is ended with the session) while any process of it runs.
          if (this.groups.has(pid) && groupMembers(pid).length === 0) this.groups.delete(pid);
          void launch.cleanup?.().catch(() => undefined);
          resolve();
        }),
      ),
    };
    this.makeRoom();
    this.jobs.set(pid, job);
    return job;
  }

  /**
   * Ends the job's whole process group (SIGTERM, then SIGKILL after the grace period). False when its
   * processes were already gone. Only a group still registered is signalled: once it was seen empty its
   * number may belong to someone else's processes.
   */
  async stop(job: BackgroundJob): Promise<boolean> {
    if (!this.groups.has(job.pid)) return false;
    const alive = groupMembers(job.pid).length > 0;
    await this.groups.terminate(job.pid);
    return alive;
  }

  private makeRoom(): void {
    if (this.jobs.size < this.max) return;
    const oldest = [...this.jobs.values()].find((j) => j.status === 'exited' && groupMembers(j.pid).length === 0);
    if (oldest) this.jobs.delete(oldest.pid);
  }
}

function notStarted(error: string): ExecOutcome {
  return { output: '', error, exitCode: null, signal: null, backgroundPids: [], timedOut: false, aborted: false };
}
