import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
// @ts-expect-error: a plain .mjs build script without type declarations
import {
  AJV_PROVIDER_ANCHORS,
  GENAI_EAGER_IMPORTS,
  GENAI_LIGHT_WEB,
  GENAI_MODELS_ONLY,
  GENAI_PATH_GET,
  GENAI_PLAIN_CONTENT,
  genaiModelsOnly,
  genaiPlainContents,
  hoistGenaiPathKeys,
  plainPartFields,
} from '../../scripts/bundle-plugins.mjs';
// @ts-expect-error: a plain .mjs build script without type declarations
import { lazySdkSchemas, makeSchemasLazy, SDK_TYPES_FILE } from '../../scripts/lazy-sdk-schemas.mjs';
import { REPO } from '../helpers/paths.js';

/** Guards for docs/third-party-patches.md: each test names the patch whose upstream detail changed. */
const require = createRequire(import.meta.url);

describe('third-party patches still match upstream', () => {
  it('zod English-only locales: the locales index and its English default export exist', async () => {
    const index = readFileSync(require.resolve('zod/v4/locales/index.js'), 'utf8');
    expect(index, 'zodEnglishOnly: zod/v4/locales/index.js changed').toMatch(
      /export \{ default as en \} from "\.\/en\.js"/,
    );
    const en = await import('zod/v4/locales/en.js');
    expect(typeof en.default, 'zodEnglishOnly: en.js has no default export').toBe('function');
  });

  it('lazy Ajv provider: the SDK file holds both anchors verbatim', () => {
    const src = readFileSync(join(REPO, AJV_PROVIDER_ANCHORS.file), 'utf8');
    expect(src.includes(AJV_PROVIDER_ANCHORS.imports), 'lazyAjvProvider: import lines changed').toBe(true);
    expect(src.includes(AJV_PROVIDER_ANCHORS.factory), 'lazyAjvProvider: factory changed').toBe(true);
  });

  it('lazy Gemini SDK auth stack: both import lines verbatim, and no other use of the two names', () => {
    const src = readFileSync(join(REPO, GENAI_EAGER_IMPORTS.file), 'utf8');
    expect(src.includes(GENAI_EAGER_IMPORTS.auth), 'patchGenai (auth): the google-auth-library import changed').toBe(
      true,
    );
    expect(src.includes(GENAI_EAGER_IMPORTS.ws), 'patchGenai (auth): the ws import changed').toBe(true);
    const authUses = src.match(/\bGoogleAuth\b/g)!.length;
    expect(src.match(/new GoogleAuth\(/g)!.length, 'patchGenai (auth): GoogleAuth is used other than with new').toBe(
      authUses - 1,
    );
    expect(src.match(/\bNodeWs\b/g)!.length, 'patchGenai (auth): NodeWs is used other than as NodeWs.WebSocket').toBe(
      src.match(/\bNodeWs\.WebSocket\b/g)!.length + 1,
    );
  });

  it('light model request objects: the headers and stream-chunk lines verbatim', () => {
    const src = readFileSync(join(REPO, GENAI_LIGHT_WEB.file), 'utf8');
    expect(src.includes(GENAI_LIGHT_WEB.headers), 'patchGenai (light web): getHeadersInternal changed').toBe(true);
    expect(src.includes(GENAI_LIGHT_WEB.chunk), 'patchGenai (light web): the stream chunk wrapping changed').toBe(true);
  });

  it('one-key path lookups in genai: the getValueByPath opening verbatim, and the fast path answers as the loop does', () => {
    const src = readFileSync(join(REPO, GENAI_PATH_GET.file), 'utf8');
    const at = src.indexOf(GENAI_PATH_GET.opening);
    expect(at, 'patchGenai (path get): the getValueByPath opening changed').toBeGreaterThanOrEqual(0);
    const original = src.slice(at, src.indexOf('\n}\n', at) + 2);
    const head = original.slice(0, original.indexOf('\n') + 1);
    const patched = `${head}${GENAI_PATH_GET.fastPath}${original.slice(head.length)}`;
    type Get = (data: unknown, keys: string[], def?: unknown) => unknown;
    const load = (code: string) => new Function(`${code}\nreturn getValueByPath;`)() as Get;
    const [before, after] = [load(original), load(patched)];
    const throwing = Object.defineProperty({}, 'bad', {
      get() {
        throw new TypeError('no');
      },
    });
    const data = { text: 'hi', n: 0, nil: null, list: [{ a: 1 }, { a: 2 }], 'odd[0]': 3, nested: { deep: true } };
    const cases: [unknown, string[]][] = [
      [data, ['text']],
      [data, ['n']],
      [data, ['nil']],
      [data, ['missing']],
      [data, ['_self']],
      [data, ['list[]', 'a']],
      [data, ['list[]']],
      [data, ['odd[0]']],
      [data, ['nested', 'deep']],
      ['a string', ['length']],
      [null, ['text']],
      [undefined, ['_self']],
      [[1, 2], ['length']],
      [throwing, ['bad']],
    ];
    for (const [d, keys] of cases) {
      expect(after(d, keys, 'default'), JSON.stringify(keys)).toEqual(before(d, keys, 'default'));
    }
  });

  it('constant paths in genai: every literal path becomes a constant, and neither helper changes its keys', () => {
    const src = readFileSync(join(REPO, GENAI_PATH_GET.file), 'utf8');
    const out = hoistGenaiPathKeys(src) as string;
    expect(out, 'patchGenai (constant paths): no literal paths found').toBeDefined();
    expect(out.match(/ValueByPath\(\w+,\s*\[/g) ?? [], 'literal paths left').toEqual([]);
    // The helpers only read their keys: no assignment, push, splice, sort or reverse on them.
    for (const fn of ['getValueByPath', 'setValueByPath']) {
      const at = src.indexOf(`function ${fn}(data, keys`);
      expect(at, `${fn} changed its signature`).toBeGreaterThanOrEqual(0);
      const body = src.slice(at, src.indexOf('\n}\n', at));
      expect(body, fn).not.toMatch(
        /keys(\[[^\]]*\])?\s*=[^=]|keys\.(push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin)\(/,
      );
    }
    // The patched module still converts a request as before.
    type Convert = (from: unknown) => unknown;
    const load = (code: string) =>
      new Function(`${code.replace(/^(import|export) .*$/gm, '')}\nreturn contentToMldev$1;`)() as Convert;
    const content = { role: 'user', parts: [{ text: 'hi', thought: true }, { functionCall: { name: 'f', args: {} } }] };
    expect(load(out)(content)).toEqual(load(src)(content));
  });

  it('plain contents in genai: contentToMldev$1 verbatim, partToMldev$1 only field statements, and the fast path serialises as the conversion does', () => {
    const src = readFileSync(join(REPO, GENAI_PLAIN_CONTENT.file), 'utf8');
    expect(src.includes(GENAI_PLAIN_CONTENT.content), 'patchGenai (plain contents): contentToMldev$1 changed').toBe(
      true,
    );
    const fields = plainPartFields(src) as string[] | undefined;
    expect(fields, 'patchGenai (plain contents): partToMldev$1 is not a run of field statements').toBeDefined();
    // The fields a history is made of are copied as they are; a function call is converted, so it is not.
    for (const f of ['text', 'thought', 'thoughtSignature', 'functionResponse', 'inlineData'])
      expect(fields, f).toContain(f);
    expect(fields).not.toContain('functionCall');
    const out = genaiPlainContents(src) as string;
    expect(out, 'patchGenai (plain contents): not applied').toBeTypeOf('string');
    type Convert = (from: unknown) => unknown;
    const load = (code: string) =>
      new Function(`${code.replace(/^(import|export) .*$/gm, '')}\nreturn contentToMldev$1;`)() as Convert;
    const [converted, fast] = [load(src), load(out)];
    const bare = Object.assign(Object.create(null), { text: 'no prototype' });
    const sparse: unknown[] = [{ text: 'a' }];
    sparse[2] = { text: 'c' }; // a hole at 1
    const contents: unknown[] = [
      { role: 'user', parts: [{ text: 'hi' }] },
      { parts: [{ text: 'a', thought: true, thoughtSignature: 's' }], role: 'model' },
      { role: 'model', parts: [{ thoughtSignature: 's', text: 'out of order' }] },
      { role: 'model', parts: [{ functionCall: { name: 'f', args: { a: 1 }, id: 'c1' }, thoughtSignature: 's' }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'f', response: { output: 'x' } } }] },
      { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }, { text: 'and' }] },
      { role: 'user', parts: [{ text: 'kept', extra: 'dropped by the conversion' }] },
      { role: 'user', parts: [{ text: 'x', thoughtSignature: null }] },
      { role: 'user', parts: [{ text: 'x', thought: undefined }] },
      { role: 'user', parts: [{ text: 'x', 0: 'an index key' }] },
      { role: 'user', parts: [bare] },
      { role: 'user', parts: sparse },
      { role: 'user', parts: ['a string part'] },
      { role: 'user', parts: [] },
      { role: null, parts: [{ text: 'no role' }] },
      { parts: [{ text: 'no role at all' }] },
      { role: 'model' },
      { role: 'user', parts: 'not a list' },
      { role: 'user', parts: [{ text: 'extra content field' }], other: 1 },
    ];
    for (const c of contents) expect(JSON.stringify(fast(c)), JSON.stringify(c)).toBe(JSON.stringify(converted(c)));
    // The point of it: a content of plain parts keeps its own parts, not a copy of each.
    const plain = { role: 'user', parts: [{ text: 'hi' }, { text: 'x', thought: true }] };
    expect((fast(plain) as { parts: unknown }).parts).toBe(plain.parts);
    expect((fast(contents[3]) as { parts: unknown }).parts).not.toBe((contents[3] as { parts: unknown }).parts);
  });

  it('Gemini SDK with models only: the class and constructor openings and the service list verbatim; the host and the web server use only models', () => {
    const src = readFileSync(join(REPO, GENAI_MODELS_ONLY.file), 'utf8');
    const slim = genaiModelsOnly(src) as string | undefined;
    expect(slim, 'patchGenai (models only): the GoogleGenAI class, its constructor or its services changed').toBeTypeOf(
      'string',
    );
    const cls = (text: string) => text.slice(text.indexOf('class GoogleGenAI {'), text.indexOf('\nfunction getEnv('));
    const before = cls(src);
    // Every dropped name is a service the constructor built or a getter of the class, and the result builds
    // none of them, but answers each with a getter that throws.
    for (const name of GENAI_MODELS_ONLY.dropped as string[]) {
      expect(before.includes(`this.${name} = new `) || before.includes(`get ${name}() {`), name).toBe(true);
      expect(cls(slim!), name).not.toContain(`this.${name} = new `);
      expect(cls(slim!), name).toContain(`get ${name}() {\n        throw new Error(`);
    }
    expect(cls(slim!)).toContain('this.models = new Models(this.apiClient);');
    // The two GoogleGenAI clients, the host's and the web server's, read nothing but `models`.
    const uses = (file: string, re: RegExp) => new Set(readFileSync(join(REPO, file), 'utf8').match(re));
    expect(uses('host/core/content-generator.ts', /\bai\.\w+/g), 'the host uses more than ai.models').toEqual(
      new Set(['ai.models']),
    );
    expect(uses('servers/web/model.ts', /\bthis\.client\.\w+/g), 'the web server uses more than client.models').toEqual(
      new Set(['this.client.models']),
    );
  });

  it('SDK tool-error tag: McpServer still routes its own tool errors through createToolError', () => {
    const server = new McpServer({ name: 'guard', version: '1' }) as unknown as {
      createToolError?: (m: string) => unknown;
    };
    expect(typeof server.createToolError, 'tagSdkToolErrors: McpServer.createToolError is gone').toBe('function');
    expect(server.createToolError!('x')).toMatchObject({ isError: true, content: [{ type: 'text' }] });
  });

  it('linear stdio read buffer: StdioClientTransport keeps its reader in _readBuffer', () => {
    const t = new StdioClientTransport({ command: 'true' }) as unknown as { _readBuffer?: Record<string, unknown> };
    expect(t._readBuffer, 'useLinearReadBuffer: _readBuffer is gone').toBeDefined();
    for (const m of ['append', 'readMessage', 'clear']) {
      expect(typeof t._readBuffer![m], `useLinearReadBuffer: _readBuffer.${m} is gone`).toBe('function');
    }
  });

  it('lazy SDK schemas: the types module still has the shape the rewrite takes, and behaves the same', async () => {
    const src = readFileSync(join(REPO, SDK_TYPES_FILE), 'utf8');
    const rewritten = makeSchemasLazy(src, 'zod/v4');
    expect(rewritten, 'lazySdkSchemas: the SDK types module imports more than zod, or re-exports').toBeTypeOf('string');
    // The rewritten module bundled as the bins bundle it, against the original.
    const { build } = await import('esbuild');
    const out = await build({
      stdin: { contents: "export * from '@modelcontextprotocol/sdk/types.js';", resolveDir: REPO },
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      plugins: [lazySdkSchemas],
      logLevel: 'silent',
    });
    expect(out.warnings.map((w) => w.text)).toEqual([]);
    expect(out.outputFiles[0]!.text, 'the rewritten module was bundled').toContain('gmc-lazy-sdk-types:');
    const mod = { exports: {} as Record<string, unknown> };
    new Function('module', 'exports', 'require', out.outputFiles[0]!.text)(mod, mod.exports, require);
    const lazy = mod.exports as Record<string, { safeParse?: (v: unknown) => { success: boolean } }>;
    const eager = (await import('@modelcontextprotocol/sdk/types.js')) as unknown as typeof lazy;
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(eager).sort());
    const samples = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'glob', arguments: { pattern: '*' } } },
      { content: [{ type: 'text', text: 'ok' }], isError: false },
      { content: [{ type: 'image', data: 'AA==' }] },
      { tools: [{ name: 't', inputSchema: { type: 'object' } }] },
      { method: 'notifications/progress', params: { progressToken: 1, progress: 2 } },
    ];
    for (const name of Object.keys(eager).filter((n) => n.endsWith('Schema'))) {
      for (const v of samples) {
        expect(lazy[name]!.safeParse!(v).success, `${name} on ${JSON.stringify(v)}`).toBe(
          eager[name]!.safeParse!(v).success,
        );
      }
    }
    expect(lazy.LATEST_PROTOCOL_VERSION).toBe(eager.LATEST_PROTOCOL_VERSION);
    expect((lazy.ErrorCode as unknown as Record<string, number>).InvalidParams).toBe(-32602);
  });

  it('lazy terminfo compile: Tput.prototype._compile(info, key, str) exists', () => {
    const Tput = require('blessed/lib/tput.js') as { prototype: { _compile?: (...a: unknown[]) => unknown } };
    expect(typeof Tput.prototype._compile, 'makeTputCompileLazy: Tput._compile is gone').toBe('function');
    expect(Tput.prototype._compile!.length, 'makeTputCompileLazy: _compile signature changed').toBe(3);
  });

  it('wide characters: blessed unicode exposes charWidth, codePointAt and chars.all', () => {
    const unicode = require('blessed/lib/unicode.js') as Record<string, unknown> & { chars: { all: unknown } };
    expect(typeof unicode.charWidth, 'patchBlessedWideChars: charWidth is gone').toBe('function');
    expect(typeof unicode.codePointAt, 'patchBlessedWideChars: codePointAt is gone').toBe('function');
    expect(unicode.chars.all, 'patchBlessedWideChars: chars.all is gone').toBeInstanceOf(RegExp);
    const uses = readFileSync(require.resolve('blessed/lib/widgets/element.js'), 'utf8');
    expect(uses, 'patchBlessedWideChars: blessed no longer uses chars.all through replace').toMatch(
      /\.replace\(unicode\.chars\.all/,
    );
  });

  it('wrap measure: blessed wraps in Element#_wrapContent, counting UTF-16 units, and returns lines with fake', () => {
    const Element = require('blessed/lib/widgets/element.js') as { prototype: Record<string, unknown> };
    expect(typeof Element.prototype._wrapContent, 'patchWrapMeasure: _wrapContent is gone').toBe('function');
    const src = readFileSync(require.resolve('blessed/lib/widgets/element.js'), 'utf8');
    expect(src, 'patchWrapMeasure: blessed no longer measures a line by its length').toContain(
      'while (line.length > width)',
    );
    expect(src, 'patchWrapMeasure: the wrapped lines no longer carry `fake`').toContain('out.fake = lines;');
  });
});

describe('docs/third-party-patches.md', () => {
  it('says how many patches its table lists, and this file guards each one', () => {
    const doc = readFileSync(join(REPO, 'docs/third-party-patches.md'), 'utf8');
    const rows = doc.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Patch') && !l.startsWith('|---'));
    const words = [
      'zero',
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
      'eleven',
      'twelve',
      'thirteen',
      'fourteen',
    ];
    const said = /^(\w+) places change/m.exec(doc)?.[1]?.toLowerCase();
    expect(said, 'the count sentence').toBe(words[rows.length]);
    const guards = readFileSync(join(REPO, 'test/scripts/third-party-patches.unit.test.ts'), 'utf8');
    for (const row of rows) {
      const name = row.split('|')[1]!.trim();
      expect(guards.toLowerCase(), `a guard for "${name}"`).toContain(`it('${name.toLowerCase()}`);
    }
  });
});
