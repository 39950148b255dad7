import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Content, Part } from '@google/genai';
import { classifyTool } from '../policy/tool-class.js';
import type { ToolCallRequestInfo, ToolRef } from '../scheduler/types.js';
import { writeFileAtomic } from '../atomic-file.js';
import { ShadowGit } from './shadow-git.js';

export interface CheckpointRecord {
  id: string;
  time: string;
  commit: string;
  /** The edit the snapshot was taken for. */
  tool: { name: string; args: Record<string, unknown> };
  file?: string;
  sessionId?: string;
  /** The conversation when the edit was requested (it ends with the model's call). */
  history: Content[];
}

export const RESTORED_CALL_TEXT = 'The user restored a checkpoint taken before this call ran; its changes were undone.';

export interface CheckpointerOptions {
  projectRoot: string;
  projectTempDir: string;
  /** The tool a call names, to tell edits (checkpointed) from the rest. */
  lookup(name: string): Pick<ToolRef, 'serverAlias' | 'toolName' | 'builtIn' | 'readOnly'> | undefined;
  sessionId?: () => string | undefined;
  warn?: (message: string) => void;
}

function targetFile(args: Record<string, unknown>): string | undefined {
  const v = args.file_path ?? args.absolute_path ?? args.path;
  return typeof v === 'string' ? v : undefined;
}

/**
 * Before a model turn's edits run, snapshots the project in a shadow repository and saves the conversation
 * next to it, so `/restore` can put both back. A failure to snapshot is reported once and never blocks the edit.
 */
export class Checkpointer {
  readonly git: ShadowGit;
  readonly dir: string;
  private warned = false;

  constructor(private readonly opts: CheckpointerOptions) {
    this.dir = join(opts.projectTempDir, 'checkpoints');
    this.git = new ShadowGit(opts.projectRoot, join(this.dir, 'git'));
  }

  private isEdit(r: ToolCallRequestInfo): boolean {
    const tool = this.opts.lookup(r.name);
    return !!tool && classifyTool(tool) === 'edit';
  }

  /** Called with a turn's calls before they are scheduled. */
  async beforeTools(requests: ToolCallRequestInfo[], history: Content[]): Promise<CheckpointRecord | undefined> {
    const edit = requests.find((r) => this.isEdit(r));
    if (!edit) return undefined;
    try {
      const file = targetFile(edit.args);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const id = `${stamp}-${(file ? basename(file) : 'edit').replace(/[^A-Za-z0-9._-]/g, '_')}-${edit.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
      const commit = await this.git.snapshot(`checkpoint before ${edit.name}${file ? ` ${file}` : ''}`);
      const record: CheckpointRecord = {
        id,
        time: new Date().toISOString(),
        commit,
        tool: { name: edit.name, args: edit.args },
        file,
        sessionId: this.opts.sessionId?.(),
        history,
      };
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileAtomic(join(this.dir, `${id}.json`), `${JSON.stringify(record)}\n`);
      return record;
    } catch (err) {
      if (!this.warned)
        this.opts.warn?.(`Checkpointing failed; edits run without a checkpoint: ${(err as Error).message}`);
      this.warned = true;
      return undefined;
    }
  }

  /** Saved checkpoints, oldest first. */
  list(): CheckpointRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    return names
      .sort()
      .map((n) => {
        try {
          return JSON.parse(readFileSync(join(this.dir, n), 'utf8')) as CheckpointRecord;
        } catch {
          return undefined;
        }
      })
      .filter((r): r is CheckpointRecord => !!r?.commit);
  }

  /** Restores the files of a checkpoint (by id or 1-based number) and returns the conversation to resume. */
  async restore(ref: string): Promise<{ record: CheckpointRecord; history: Content[] }> {
    const all = this.list();
    const record = /^\d+$/.test(ref) ? all[Number(ref) - 1] : all.find((r) => r.id === ref || r.id.startsWith(ref));
    if (!record) throw new Error(`No checkpoint "${ref}" (see /restore).`);
    await this.git.restore(record.commit);
    return { record, history: answerPendingCalls(record.history) };
  }
}

/** The restored conversation ends with the call the snapshot was taken for: it is answered as undone. */
function answerPendingCalls(history: Content[]): Content[] {
  const last = history[history.length - 1];
  const calls = last?.role === 'model' ? (last.parts ?? []).filter((p) => p.functionCall) : [];
  if (!calls.length) return history;
  const parts: Part[] = calls.map((p) => ({
    functionResponse: { id: p.functionCall!.id, name: p.functionCall!.name, response: { error: RESTORED_CALL_TEXT } },
  }));
  return [...history, { role: 'user', parts }];
}
