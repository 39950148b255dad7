import { describe, expect, it } from 'vitest';
import { JIT_FOOTER, JIT_HEADER, JitContext, type JitManager } from '../../../host/core/jit-context.js';

/** A manager of the module's own JitManager interface: the memory server's state and scripted answers per path. */
function manager(
  answers: Record<string, { uri?: string; text?: string }[] | Error>,
  status = 'connected',
  builtIn = true,
) {
  const asked: string[] = [];
  const m: JitManager = {
    status: (alias) => (alias === 'memory' ? { status, builtIn } : undefined),
    getRoots: () => ['/w'],
    readResource: async (alias, uri) => {
      expect(alias).toBe('memory');
      const path = decodeURIComponent(uri.replace('gemini-memory://context-for?path=', ''));
      asked.push(path);
      const a = answers[path] ?? [];
      if (a instanceof Error) throw a;
      return { contents: a };
    },
  };
  return { m, asked };
}
const readFile = { serverAlias: 'filesystem', toolName: 'read_file', builtIn: true };

/** A call that succeeded: the lookup, then the text appended to its output. */
const forCall = async (jit: JitContext, ...a: Parameters<JitContext['lookup']>) => (await jit.lookup(...a))();

describe('JitContext.lookup', () => {
  it("asks the memory server for the call's paths (made absolute) and appends the blocks once per session", async () => {
    const { m, asked } = manager({ '/w/pkg/a.ts': [{ uri: 'file:///w/pkg/GEMINI.md', text: 'pkg rules' }] });
    const jit = new JitContext(m, '/w');
    expect(await forCall(jit, readFile, { absolute_path: 'pkg/a.ts' })).toBe(`${JIT_HEADER}pkg rules${JIT_FOOTER}`);
    expect(asked).toEqual(['/w/pkg/a.ts']);
    expect(await forCall(jit, readFile, { absolute_path: '/w/pkg/a.ts' })).toBe('');
  });

  it("only built-in tools with path arguments; another server's read_file is not ours", async () => {
    const { m, asked } = manager({});
    const jit = new JitContext(m, '/w');
    expect(await forCall(jit, { ...readFile, builtIn: false }, { absolute_path: '/w/a' })).toBe('');
    expect(
      await forCall(jit, { serverAlias: 'shell', toolName: 'run_shell_command', builtIn: true }, { command: 'ls' }),
    ).toBe('');
    expect(asked).toEqual([]);
  });

  it('nothing when the memory server is not connected, or is not the built-in one', async () => {
    for (const [status, builtIn] of [
      ['failed', true],
      ['connected', false],
    ] as const) {
      const { m, asked } = manager({ '/w/a': [{ text: 'x' }] }, status, builtIn);
      expect(await forCall(new JitContext(m, '/w'), readFile, { absolute_path: '/w/a' })).toBe('');
      expect(asked).toEqual([]);
    }
  });

  it('a failed read is logged and never fails the call; empty paths are skipped', async () => {
    const logged: string[] = [];
    const { m } = manager({ '/w/a': new Error('resource gone') });
    const jit = new JitContext(m, '/w', (msg) => logged.push(msg));
    expect(await forCall(jit, readFile, { absolute_path: '/w/a' })).toBe('');
    expect(await forCall(jit, readFile, { absolute_path: '' })).toBe('');
    expect(logged).toEqual(['jit context for /w/a: resource gone']);
  });
});
