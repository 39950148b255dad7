import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../../../host/tools/builtin-catalogue.js';
import { relativeTo, shortenPath, snippet } from '../../../host/tools/call-titles.js';

const title = (tool: string, args: Record<string, unknown>) =>
  BUILTIN_TOOLS.find((r) => r.tool === tool)!.title(args, (p) => relativeTo('/w', p));

describe("calls' titles, as Gemini CLI 0.61 writes them", () => {
  it('paths are relative to the workspace and cut in the middle, keeping the file name', () => {
    expect(relativeTo('/w', '/w/a/b.ts')).toBe('a/b.ts');
    expect(relativeTo('/w', '/w')).toBe('.');
    expect(relativeTo('/w', '/etc/passwd')).toBe('/etc/passwd');
    expect(relativeTo('/w', '/work-evil/x')).toBe('/work-evil/x');
    // A name that starts with two dots is inside: segments are compared, not string prefixes.
    expect(relativeTo('/w', '/w/..notes.md')).toBe('..notes.md');
    expect(shortenPath('src/short.ts')).toBe('src/short.ts');
    const long = shortenPath('packages/core/src/tools/very/deep/folder/write-file.ts');
    expect(long.length).toBeLessThanOrEqual(35);
    expect(long).toBe('packages/.../folder/write-file.ts');
    expect(shortenPath('a'.repeat(50)).length).toBeLessThanOrEqual(35);
  });

  it('per tool', () => {
    expect(title('write_file', { file_path: '/w/draft.md' })).toBe('Writing to draft.md');
    expect(title('read_file', { absolute_path: '/w/src/a.ts' })).toBe('src/a.ts');
    expect(title('replace', { file_path: '/w/a.ts', old_string: '', new_string: 'x' })).toBe('Create a.ts');
    expect(title('replace', { file_path: '/w/a.ts', old_string: 'let a = 1;\nmore', new_string: 'const a = 1;' })).toBe(
      'a.ts: let a = 1; => const a = 1;',
    );
    expect(title('run_shell_command', { command: 'git diff | head' })).toBe('git diff | head');
    expect(title('glob', { pattern: '**/*.ts', path: '/w/src' })).toBe("'**/*.ts' within src");
    expect(title('search_file_content', { pattern: 'TODO', include: '*.ts' })).toBe("'TODO' in *.ts within ./");
    expect(title('google_web_search', { query: 'mcp' })).toBe('Searching the web for: "mcp"');
    expect(title('web_fetch', { prompt: 'summarise https://x.test' })).toBe(
      'Processing URLs and instructions from prompt: "summarise https://x.test"',
    );
    expect(snippet('x'.repeat(40))).toBe(`${'x'.repeat(30)}...`);
  });
});
