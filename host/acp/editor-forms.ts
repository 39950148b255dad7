import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import type { ClientAsker } from '../mcp/client-requests.js';
import type { FormAnswer } from '../mcp/elicitation-form.js';

/**
 * Servers' forms (MCP elicitation, `ask_user`'s questions among them) passed on to the editor as ACP's
 * `elicitation/create`, when the editor says it shows forms (`clientCapabilities.elicitation.form`); the
 * schema goes as the server wrote it. Without that capability the session has nobody to ask, as headless.
 * ACP has no request for sampling approval: an untrusted server's sampling stays refused.
 */
export function editorAsker(
  caps: acp.ClientCapabilities,
  client: acp.AgentContext,
  sessionId: () => string,
  notify: (message: string) => void,
): ClientAsker | undefined {
  const forms = caps.elicitation?.form;
  if (forms === undefined || forms === null) return undefined;
  const urls = caps.elicitation?.url !== undefined && caps.elicitation?.url !== null;
  return {
    fillForm: async (request, signal): Promise<FormAnswer> => {
      if (request.url && !urls) return { action: 'decline' };
      const scope = { sessionId: sessionId(), message: request.form.message };
      const params: acp.CreateElicitationRequest = request.url
        ? { ...scope, mode: 'url', url: request.url, elicitationId: randomUUID() }
        : { ...scope, mode: 'form', requestedSchema: (request.schema ?? {}) as acp.ElicitationSchema };
      const answer = await client.request(acp.methods.client.elicitation.create, params, {
        cancellationSignal: signal,
      });
      if (answer.action === 'accept') {
        const content = (answer as { content?: Record<string, unknown> | null }).content;
        return { action: 'accept', content: content ?? {} };
      }
      return { action: answer.action === 'decline' ? 'decline' : 'cancel' };
    },
    approveSampling: async ({ server }) => {
      notify(
        `MCP server "${server}" asked to use the model (sampling); denied: an editor session allows sampling only for trusted servers ("trust": true).`,
      );
      return 'deny';
    },
  };
}
