import { afterEach } from 'vitest';
import {
  startScriptedGemini,
  type RecordedRequest,
  type ScriptEntry,
  type ScriptedGemini,
} from '../../helpers/scripted-gemini.mjs';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, type StdioServerOptions, type StdioServer } from '../../helpers/mcp.js';

export const NS = 'dev.gemini-mcp-cli';

/** A non-streaming generateContent answer with optional candidate extras (grounding, URL context). */
export function answer(text: string, extras: Record<string, unknown> = {}): ScriptEntry {
  return {
    method: 'generateContent',
    response: {
      candidates: [
        { content: { role: 'model', parts: text ? [{ text }] : [] }, finishReason: 'STOP', index: 0, ...extras },
      ],
    },
  };
}

export function apiError(status: number, message: string): ScriptEntry {
  return {
    method: 'generateContent',
    error: { status, body: { error: { code: status, message, status: 'INTERNAL' } } },
  };
}

/** The user text of a recorded request. */
export function promptOf(req: RecordedRequest): string {
  return req.body.contents[0].parts[0].text as string;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** A scripted Gemini endpoint answering each request with `respond(request)`. */
export async function gemini(respond: (req: RecordedRequest) => ScriptEntry | undefined): Promise<ScriptedGemini> {
  const ep = await startScriptedGemini([], { responder: respond });
  cleanups.push(() => ep.close());
  return ep;
}

/** The built web server over stdio, talking to `ep` with a test key (no key when `ep` is null). */
export async function startWeb(
  ep: ScriptedGemini | null,
  args: string[] = [],
  opts: StdioServerOptions = {},
): Promise<StdioServer> {
  const env: Record<string, string> = {
    GEMINI_API_KEY: '',
    GOOGLE_API_KEY: '',
    GOOGLE_GEMINI_BASE_URL: '',
    GEMINI_MODEL: '',
  };
  if (ep) Object.assign(env, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: ep.url });
  const s = await startStdioServer(ENTRY.web, { ...opts, args, env: { ...env, ...(opts.env ?? {}) } });
  cleanups.push(() => s.close());
  return s;
}
