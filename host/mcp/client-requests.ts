import type { EditorFiles } from '../../protocol/editor-files.js';
import type { CreateMessageResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import {
  headlessFormElicitor,
  parseForm,
  withDefaults,
  type FormElicitor,
  type FormRequest,
} from './elicitation-form.js';
import { NoticeLimiter, SamplingStats } from './sampling-stats.js';
import { describeSampling, sample, SamplingRequestError, type SamplingModel, type SamplingParams } from './sampling.js';

/** What the user is shown before a server may use the model. */
export interface SamplingApprovalRequest {
  server: string;
  /** The request in a few lines: system prompt, messages, limits, model hints. */
  summary: string;
  model: string;
}

export type SamplingDecision = 'once' | 'always' | 'deny';

/** The person at the terminal: fills in forms and approves sampling. A headless run has none. */
export interface ClientAsker extends FormElicitor {
  approveSampling(request: SamplingApprovalRequest, signal: AbortSignal): Promise<SamplingDecision>;
}

export interface ClientRequestsOptions {
  /** Whether the user trusts the server (`trust: true`): its sampling needs no approval. */
  trusted: (alias: string) => boolean;
  /** A message the user must see (headless: stderr), e.g. why a server's request was declined. */
  notify?: (message: string) => void;
  /** The editor's files (an ACP editor's buffers), lent to our own servers. */
  editorFiles?: EditorFiles;
}

/** JSON-RPC error code the spec suggests for a sampling request the user rejected. */
export const USER_REJECTED = -1;

/**
 * The host's side of requests servers send to the client: form and URL elicitation (our own servers'
 * typed confirmations go to the approval broker instead) and sampling. One per session; the terminal UI
 * installs its asker, the model is installed once the session has one.
 */
export class ClientRequests {
  private asker?: ClientAsker;
  private model?: { gen: SamplingModel; name: () => string };
  private readonly alwaysSample = new Set<string>();
  /** Per-server sampling counts and tokens, for /stats and headless JSON stats. */
  readonly sampling = new SamplingStats();
  private readonly notices: NoticeLimiter;

  constructor(private readonly opts: ClientRequestsOptions) {
    this.notices = new NoticeLimiter((m) => this.opts.notify?.(m));
  }

  /** Says the counts of repeated notices still pending (at the end of a run). */
  flushNotices(): void {
    this.notices.flush();
  }

  get editorFiles(): EditorFiles | undefined {
    return this.opts.editorFiles;
  }

  /** Whether someone can answer forms (the chat's dialog); a headless run has nobody. */
  get hasUser(): boolean {
    return !!this.asker;
  }

  setAsker(asker: ClientAsker | undefined): void {
    this.asker = asker;
  }

  /** The session's model; `name` is read per request so `/model` changes apply. */
  setModel(gen: SamplingModel, name: () => string): void {
    this.model = { gen, name };
  }

  /** A typed confirmation from one of our servers (answered by the approval broker, not as a form). */
  static isConfirmation(params: ElicitRequest['params']): boolean {
    const meta = params._meta as Record<string, unknown> | undefined;
    return !!meta && meta[META.confirmation] !== undefined;
  }

  async elicit(alias: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const elicitor: FormElicitor = this.asker ?? headlessFormElicitor((m) => this.opts.notify?.(m));
    const request: FormRequest =
      params.mode === 'url'
        ? { server: alias, form: { message: params.message, fields: [] }, url: params.url }
        : { server: alias, form: parseForm(params.message, params.requestedSchema), schema: params.requestedSchema };
    if (request.url && !/^https?:\/\//i.test(request.url)) {
      this.opts.notify?.(`MCP server "${alias}" asked to open a non-web URL (${request.url}); declined.`);
      return { action: 'decline' };
    }
    const answer = await elicitor.fillForm(request, signal);
    // Without a person at the terminal the decline says so, so a server can tell it from a user's no.
    if (!this.asker) return { action: 'decline', _meta: { [META.noUser]: true } };
    if (answer.action !== 'accept') return { action: answer.action };
    if (params.mode === 'url') return { action: 'accept' };
    return { action: 'accept', content: withDefaults(request.form, answer.content) as ElicitResult['content'] };
  }

  async createMessage(alias: string, params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult> {
    // A server is connected when it asks, so the SDK is loaded already; the host does not load it at start.
    const { McpError } = await import('@modelcontextprotocol/sdk/types.js');
    const model = this.model;
    this.sampling.asked(alias);
    if (!model) {
      this.sampling.denied(alias);
      throw new McpError(USER_REJECTED, 'Sampling is unavailable: this session has no model (no Gemini credentials).');
    }
    if (!(await this.approved(alias, params, model.name(), signal))) {
      this.sampling.denied(alias);
      throw new McpError(USER_REJECTED, `The user rejected the sampling request from "${alias}".`);
    }
    try {
      const { result, usage } = await sample(model.gen, params, model.name(), signal);
      this.sampling.answered(alias, usage);
      return result;
    } catch (err) {
      this.sampling.failed(alias);
      if (err instanceof SamplingRequestError) throw new McpError(-32602, `Invalid sampling request: ${err.message}`);
      throw new McpError(-32603, `Sampling failed: ${(err as Error).message}`);
    }
  }

  private async approved(alias: string, params: SamplingParams, model: string, signal: AbortSignal): Promise<boolean> {
    if (this.opts.trusted(alias) || this.alwaysSample.has(alias)) return true;
    if (!this.asker) {
      // A server denied in a loop gets one line, then one line with the count, not a flood.
      this.notices.notice(
        `sampling:${alias}`,
        `MCP server "${alias}" asked to use the model (sampling); denied: a headless run allows sampling only for trusted servers ("trust": true).`,
        (n) => `MCP server "${alias}" asked to use the model (sampling) ${n} more time${n === 1 ? '' : 's'}; denied.`,
      );
      return false;
    }
    const decision = await this.asker.approveSampling(
      { server: alias, summary: describeSampling(params), model },
      signal,
    );
    if (decision === 'always') this.alwaysSample.add(alias);
    return decision !== 'deny';
  }
}
