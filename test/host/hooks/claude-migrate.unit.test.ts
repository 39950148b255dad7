import { describe, expect, it } from 'vitest';
import { migrateClaudeHooks } from '../../../host/hooks/claude-migrate.js';

describe('migrateClaudeHooks: Claude Code hooks in Gemini CLI’s format', () => {
  it('renames events and matcher tool names, rewrites the project variable and converts seconds to ms', () => {
    const out = migrateClaudeHooks({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Edit|Write|Bash',
            hooks: [
              { type: 'command', command: '$CLAUDE_PROJECT_DIR/check.sh $CLAUDE_PROJECT_DIR', timeout: 30, extra: 'x' },
            ],
          },
        ],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'date' }] }],
      },
    });
    expect(out).toEqual({
      hooks: {
        BeforeTool: [
          {
            matcher: 'replace|write_file|run_shell_command',
            hooks: [{ type: 'command', command: '$GEMINI_PROJECT_DIR/check.sh $GEMINI_PROJECT_DIR', timeout: 30_000 }],
          },
        ],
        BeforeAgent: [{ hooks: [{ type: 'command', command: 'date' }] }],
      },
      skipped: [],
    });
  });

  it('renames whole tool names only (MultiEdit, Bashful and Readme stay as they are)', () => {
    const out = migrateClaudeHooks({
      hooks: { PostToolUse: [{ matcher: 'MultiEdit|Bashful|Readme|Read', hooks: [] }] },
    });
    expect(out.hooks.AfterTool).toEqual([{ matcher: 'MultiEdit|Bashful|Readme|read_file', hooks: [] }]);
  });

  it('keeps both Stop and SubagentStop hooks on AfterAgent, and keeps sequential', () => {
    const out = migrateClaudeHooks({
      hooks: {
        Stop: [{ sequential: true, hooks: [{ type: 'command', command: 'a' }] }],
        SubagentStop: [{ hooks: [{ type: 'command', command: 'b' }] }],
      },
    });
    expect(out.hooks.AfterAgent).toEqual([
      { sequential: true, hooks: [{ type: 'command', command: 'a' }] },
      { hooks: [{ type: 'command', command: 'b' }] },
    ]);
  });

  it('reports events Gemini CLI does not have, and inherited names such as toString or __proto__', () => {
    const settings = JSON.parse('{"hooks": {"PermissionRequest": [], "toString": [], "__proto__": []}}');
    expect(migrateClaudeHooks(settings)).toEqual({
      hooks: {},
      skipped: ['PermissionRequest', 'toString', '__proto__'],
    });
  });

  it('ignores a hooks section or event list of the wrong shape, and bad entries inside a list', () => {
    expect(migrateClaudeHooks({})).toEqual({ hooks: {}, skipped: [] });
    expect(migrateClaudeHooks({ hooks: ['PreToolUse'] })).toEqual({ hooks: {}, skipped: [] });
    expect(migrateClaudeHooks({ hooks: { PreToolUse: { hooks: [] } } })).toEqual({ hooks: {}, skipped: [] });
    const out = migrateClaudeHooks({
      hooks: { PreCompact: [null, 'x', { hooks: [null, { type: 'prompt', timeout: '5' }] }] },
    });
    expect(out.hooks.PreCompress).toEqual([{ hooks: [{}, {}] }]);
  });
});
