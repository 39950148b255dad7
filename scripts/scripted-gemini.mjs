// A scripted Gemini endpoint speaking the real REST/SSE wire format, so tests
// and benchmarks drive the real @google/genai SDK through `httpOptions.baseUrl` / GOOGLE_GEMINI_BASE_URL.
// Plain JS so bench scripts can import it without a build; types in scripted-gemini.d.ts.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const METHODS = ['streamGenerateContent', 'generateContent', 'countTokens'];
/** Replay-file method names → REST method names. */
const REPLAY_TO_REST = {
  generateContentStream: 'streamGenerateContent',
  generateContent: 'generateContent',
  countTokens: 'countTokens',
};

/** Reads a JSONL script in Gemini CLI's fake-responses format. */
export function readScript(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** Helpers to build entries tersely. */
export const reply = {
  text: (...chunks) => ({
    method: 'generateContentStream',
    response: chunks.map((t, i) => chunk([{ text: t }], i === chunks.length - 1)),
  }),
  calls: (...calls) => ({
    method: 'generateContentStream',
    response: [
      chunk(
        calls.map((c, i) => ({ functionCall: { id: c.id ?? `call-${i + 1}`, name: c.name, args: c.args ?? {} } })),
        true,
      ),
    ],
  }),
  json: (obj) => ({
    method: 'generateContent',
    response: {
      candidates: [
        { content: { role: 'model', parts: [{ text: JSON.stringify(obj) }] }, finishReason: 'STOP', index: 0 },
      ],
    },
  }),
  error: (status, message, extra = {}) => ({
    method: extra.method ?? 'generateContentStream',
    error: {
      status,
      body: {
        error: {
          code: status,
          message,
          status: STATUS_NAMES[status] ?? 'UNKNOWN',
          ...(extra.details ? { details: extra.details } : {}),
        },
      },
    },
  }),
};

const STATUS_NAMES = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export function chunk(
  parts,
  last = false,
  usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
) {
  const c = { candidates: [{ content: { role: 'model', parts }, index: 0 }] };
  if (last) {
    c.candidates[0].finishReason = 'STOP';
    c.usageMetadata = usage;
    c.modelVersion = 'gemini-2.5-flash';
  }
  return c;
}

/**
 * Starts the endpoint on 127.0.0.1. `script` entries are served per method in order (the first unused
 * entry of the requested method), so utility calls (next-speaker checks) can be interleaved freely.
 * Entry fields beyond the replay format: `error: {status, body}` answers with an HTTP error;
 * `chunkDelayMs` spaces stream chunks; `hang: true` sends the chunks and then never ends the stream;
 * `raw: "<text>"` sends a raw body (malformed stream tests); `delayMs` waits before answering.
 */
export async function startScriptedGemini(script = [], opts = {}) {
  const queue = [...script];
  const requests = [];
  const sockets = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    // Arrival is the body's last byte, before this endpoint's own parse (a resumed history is megabytes).
    req.on('end', () => void handle(req, res, Buffer.concat(chunks).toString('utf8'), Date.now()));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req, res, raw, arrived) {
    const m = /\/models\/([^/:]+):(\w+)/.exec(req.url ?? '');
    const method = m?.[2];
    if (!m || !METHODS.includes(method)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 404, message: `unknown path ${req.url}`, status: 'NOT_FOUND' } }));
      return;
    }
    let body;
    try {
      body = JSON.parse(raw || '{}');
    } catch {
      body = { unparsable: raw };
    }
    const record = { method, model: m[1], url: req.url, headers: req.headers, body, time: arrived };
    requests.push(record);
    opts.onRequest?.(record);

    let entry;
    if (typeof opts.responder === 'function') entry = await opts.responder(record, requests);
    if (!entry) {
      const idx = queue.findIndex((e) => (REPLAY_TO_REST[e.method] ?? e.method) === method);
      if (idx >= 0) entry = queue.splice(idx, 1)[0];
    }
    if (!entry) {
      if (method === 'countTokens') return json(res, 200, { totalTokens: 42 });
      return json(res, 400, {
        error: { code: 400, message: `No more scripted responses for ${method}`, status: 'INVALID_ARGUMENT' },
      });
    }
    if (entry.delayMs) await sleep(entry.delayMs);
    if (entry.error) return json(res, entry.error.status, entry.error.body);
    if (method !== 'streamGenerateContent') return json(res, 200, entry.response);

    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (entry.raw !== undefined) {
      res.end(entry.raw);
      return;
    }
    const list = Array.isArray(entry.response) ? entry.response : [entry.response];
    for (let i = 0; i < list.length; i++) {
      if (i > 0 && entry.chunkDelayMs) await sleep(entry.chunkDelayMs);
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(list[i])}\n\n`);
    }
    if (entry.hang) return; // the client must cancel
    res.end();
  }

  await new Promise((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    /** Requests of one REST method, in order. */
    requestsOf: (method) => requests.filter((r) => r.method === method),
    push: (...entries) => queue.push(...entries),
    remaining: () => queue.length,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function json(res, status, obj) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// `node scripts/scripted-gemini.mjs script.jsonl [port]` serves a script from the command line
// (manual demos of the terminal UI without an API key).
if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, port] = process.argv.slice(2);
  const ep = await startScriptedGemini(file ? readScript(file) : [], { port: port ? Number(port) : 0 });
  process.stderr.write(`scripted Gemini endpoint on ${ep.url}\n`);
}
