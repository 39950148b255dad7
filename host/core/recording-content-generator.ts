import { appendFileSync, writeFileSync } from 'node:fs';
import type {
  CountTokensParameters,
  CountTokensResponse,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';
import type { ContentGenerator } from './content-generator.js';
import type { ReplayMethod } from './fake-content-generator.js';

/** Only what a replay needs; keeps recordings small and free of request echoes. */
function slim(r: GenerateContentResponse): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r.candidates !== undefined) out.candidates = r.candidates;
  if (r.usageMetadata !== undefined) out.usageMetadata = r.usageMetadata;
  return out;
}

/**
 * Wraps the real generator and appends each response in the `--fake-responses` JSONL format. A stream is
 * written as one line when it ends, so a replay sees the same chunk boundaries.
 */
export class RecordingContentGenerator implements ContentGenerator {
  constructor(
    private readonly inner: ContentGenerator,
    private readonly file: string,
  ) {
    // A fresh recording per run; a stale tail would desynchronise a strict replay.
    writeFileSync(file, '');
  }

  private write(method: ReplayMethod, response: unknown): void {
    appendFileSync(this.file, JSON.stringify({ method, response }) + '\n');
  }

  async generateContentStream(req: GenerateContentParameters): Promise<AsyncGenerator<GenerateContentResponse>> {
    const stream = await this.inner.generateContentStream(req);
    const write = this.write.bind(this);
    return (async function* () {
      const seen: Record<string, unknown>[] = [];
      for await (const chunk of stream) {
        seen.push(slim(chunk));
        yield chunk;
      }
      write('generateContentStream', seen);
    })();
  }

  async generateContent(req: GenerateContentParameters): Promise<GenerateContentResponse> {
    const res = await this.inner.generateContent(req);
    this.write('generateContent', slim(res));
    return res;
  }

  async countTokens(req: CountTokensParameters): Promise<CountTokensResponse> {
    const res = await this.inner.countTokens(req);
    this.write('countTokens', { totalTokens: res.totalTokens });
    return res;
  }
}
