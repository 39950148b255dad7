import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/paths.js';
import { ONLY, runHost, workspace } from '../../helpers/run-host.js';

describe("the Gemini SDK's auth stack loads only for Vertex AI", () => {
  it('is not in the host bundle: it loads from node_modules when used', () => {
    const host = readFileSync(join(REPO, 'dist/bin/impl/gemini-mcp.cjs'), 'utf8');
    expect(host).toContain('GoogleGenAI');
    expect(host.includes('GOOGLE_APPLICATION_CREDENTIALS')).toBe(false);
  });

  it('Vertex AI without an API key reaches google-auth-library (its own credential error)', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const r = await runHost(['-p', 'x'], {
      ws,
      env: {
        GOOGLE_GENAI_USE_VERTEXAI: 'true',
        GOOGLE_CLOUD_PROJECT: 'p',
        GOOGLE_CLOUD_LOCATION: 'us-central1',
        GOOGLE_VERTEX_BASE_URL: 'http://127.0.0.1:9',
        GOOGLE_APPLICATION_CREDENTIALS: join(ws.home, 'missing.json'),
      },
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('GOOGLE_APPLICATION_CREDENTIALS');
  });
});
