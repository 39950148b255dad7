import {
  CountTokensResponse,
  GenerateContentResponse,
  type CountTokensParameters,
  type GenerateContentParameters,
} from '@google/genai';
import { readConfigFile } from '../config/config-file.js';
import { FatalInputError } from '../errors.js';
import type { ContentGenerator } from './content-generator.js';
import { abortError } from './retry.js';

export type ReplayMethod = 'generateContentStream' | 'generateContent' | 'countTokens' | 'embedContent';

export interface ReplayEntry {
  method: ReplayMethod;
  response: unknown;
}

/** A recorded session's responses: far larger than a settings file, still bounded. */
const REPLAY_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** A replay file that cannot be read or parsed: bad input (exit 42). */
export class ReplayFileError extends FatalInputError {}

export function readReplayFile(file: string): ReplayEntry[] {
  let text: string | undefined;
  try {
    // A file named on the command line may be a FIFO or a device: refused by the safe reader, not waited on.
    text = readConfigFile(file, REPLAY_FILE_MAX_BYTES);
  } catch (err) {
    throw new ReplayFileError(`Cannot read fake responses file ${file}: ${(err as Error).message}`);
  }
  if (text === undefined) throw new ReplayFileError(`Cannot read fake responses file ${file}: it does not exist`);
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    try {
      const entry = JSON.parse(line) as ReplayEntry;
      if (typeof entry?.method !== 'string' || !('response' in entry))
        throw new Error('expected {"method", "response"}');
      return [entry];
    } catch (err) {
      throw new ReplayFileError(`${file}:${i + 1}: invalid replay line: ${(err as Error).message}`);
    }
  });
}

/** Gives plain JSON the SDK response prototype, so `functionCalls` / `text` accessors work. */
function asResponse(raw: unknown): GenerateContentResponse {
  return Object.assign(new GenerateContentResponse(), raw);
}

/**
 * Serves recorded responses with no network (Gemini CLI's `--fake-responses`). Strict mode serves lines in
 * order; non-strict serves the first unused line of the requested method.
 */
export class FakeContentGenerator implements ContentGenerator {
  private readonly entries: (ReplayEntry | undefined)[];
  private next = 0;

  constructor(
    entries: ReplayEntry[],
    private readonly strict = true,
  ) {
    this.entries = [...entries];
  }

  static fromFile(file: string, strict = true): FakeContentGenerator {
    return new FakeContentGenerator(readReplayFile(file), strict);
  }

  private take(method: ReplayMethod): unknown {
    if (this.strict) {
      const entry = this.entries[this.next];
      if (!entry) throw new Error(`No more mock responses for ${method}`);
      if (entry.method !== method) {
        throw new Error(`Unexpected response type, next response was for ${entry.method} but expected ${method}`);
      }
      this.next++;
      return entry.response;
    }
    const idx = this.entries.findIndex((e) => e?.method === method);
    if (idx < 0) throw new Error(`No more mock responses for ${method}`);
    const entry = this.entries[idx]!;
    this.entries[idx] = undefined;
    return entry.response;
  }

  async generateContentStream(req: GenerateContentParameters): Promise<AsyncGenerator<GenerateContentResponse>> {
    const chunks = this.take('generateContentStream');
    const list = Array.isArray(chunks) ? chunks : [chunks];
    const signal = req.config?.abortSignal;
    return (async function* () {
      for (const c of list) {
        if (signal?.aborted) throw abortError();
        yield asResponse(c);
      }
    })();
  }

  async generateContent(_req: GenerateContentParameters): Promise<GenerateContentResponse> {
    return asResponse(this.take('generateContent'));
  }

  async countTokens(_req: CountTokensParameters): Promise<CountTokensResponse> {
    return Object.assign(new CountTokensResponse(), this.take('countTokens'));
  }
}
