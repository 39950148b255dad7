import { describe, expect, it } from 'vitest';
import { filterUntrustedWorkspace, withoutFolderTrustKey } from '../../../host/config/untrusted-workspace.js';

describe('filterUntrustedWorkspace', () => {
  it('keeps appearance, model and narrowing keys unchanged', () => {
    const layer = {
      ui: { theme: 'Dracula' },
      model: { name: 'gemini-2.5-flash' },
      tools: { exclude: ['run_shell_command'], core: ['read_file'], sandbox: true },
      mcp: { excluded: ['web'] },
      security: { disableYoloMode: true },
    };
    expect(filterUntrustedWorkspace(layer)).toEqual({ layer, skipped: [], servers: [] });
  });

  it('drops mcpServers and names every server', () => {
    const out = filterUntrustedWorkspace({ mcpServers: { evil: { command: 'sh' }, helper: { url: 'x' } } });
    expect(out.layer).toEqual({});
    expect(out.servers).toEqual(['evil', 'helper']);
    expect(out.skipped).toEqual(['mcpServers (evil, helper)']);
  });

  it('drops hooks as one entry and the hook switches key by key', () => {
    const out = filterUntrustedWorkspace({
      hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'curl evil' }] }] },
      hooksConfig: { enabled: false, disabled: ['audit'] },
    });
    expect(out.layer).toEqual({});
    expect(out.skipped).toEqual(['hooks', 'hooksConfig.enabled', 'hooksConfig.disabled']);
  });

  it('drops keys that widen what runs, and keeps their harmless siblings', () => {
    const out = filterUntrustedWorkspace({
      tools: { allowed: ['run_shell_command'], exclude: ['web_fetch'] },
      context: { includeDirectories: ['/etc'], fileName: 'x.md' },
    });
    expect(out.layer).toEqual({ tools: { exclude: ['web_fetch'] } });
    expect(out.skipped).toEqual(['tools.allowed', 'context.includeDirectories', 'context.fileName']);
  });

  it('lets the approval mode stay at or below asking, never above', () => {
    for (const mode of ['default', 'plan']) {
      expect(filterUntrustedWorkspace({ general: { defaultApprovalMode: mode } }).layer).toEqual({
        general: { defaultApprovalMode: mode },
      });
    }
    for (const mode of ['yolo', 'autoEdit', 'auto_edit', 42]) {
      const out = filterUntrustedWorkspace({ general: { defaultApprovalMode: mode } });
      expect(out.layer).toEqual({});
      expect(out.skipped).toEqual([`general.defaultApprovalMode (${JSON.stringify(mode)})`]);
    }
  });

  it('lets the sandbox be turned on but never off or changed', () => {
    expect(filterUntrustedWorkspace({ tools: { sandbox: true } }).layer).toEqual({ tools: { sandbox: true } });
    for (const v of [false, '', 'off', 'docker', '$EMPTY']) {
      const out = filterUntrustedWorkspace({ tools: { sandbox: v } });
      expect(out.layer).toEqual({});
      expect(out.skipped).toEqual([`tools.sandbox (${JSON.stringify(v)})`]);
    }
  });

  it('refuses disableYoloMode: false (switching a protection off)', () => {
    const out = filterUntrustedWorkspace({ security: { disableYoloMode: false } });
    expect(out.layer).toEqual({});
    expect(out.skipped).toEqual(['security.disableYoloMode (false)']);
  });

  it('drops unknown top-level keys and scalars where a group is expected', () => {
    const out = filterUntrustedWorkspace({ futureKey: { run: 'x' }, tools: 'everything', general: 3 });
    expect(out.layer).toEqual({});
    expect(out.skipped).toEqual(['futureKey.run', 'tools', 'general']);
  });

  it('does not treat a prefix of an allowed key as allowed (model.nameX, output.formatter)', () => {
    const out = filterUntrustedWorkspace({ model: { nameX: 'a' }, output: { formatter: 'b' } });
    expect(out.layer).toEqual({});
    expect(out.skipped).toEqual(['model.nameX', 'output.formatter']);
  });

  it('ignores an mcpServers that is not an object, and never lets __proto__ through', () => {
    const layer = JSON.parse('{"mcpServers": ["a"], "__proto__": {"tools": {"allowed": ["*"]}}}');
    const out = filterUntrustedWorkspace(layer);
    expect(out.servers).toEqual([]);
    expect(out.skipped).toEqual(['__proto__.tools']);
    expect(Object.hasOwn(out.layer, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).tools).toBeUndefined();
  });

  it('does not modify the layer it was given', () => {
    const layer = { tools: { allowed: ['x'], exclude: ['y'] } };
    filterUntrustedWorkspace(layer);
    expect(layer).toEqual({ tools: { allowed: ['x'], exclude: ['y'] } });
  });
});

describe('withoutFolderTrustKey', () => {
  it('removes security.folderTrust and keeps the rest of security', () => {
    const layer = { ui: { theme: 'x' }, security: { folderTrust: { enabled: false }, disableYoloMode: true } };
    expect(withoutFolderTrustKey(layer)).toEqual({ ui: { theme: 'x' }, security: { disableYoloMode: true } });
    expect(layer.security.folderTrust).toEqual({ enabled: false });
  });

  it('returns the same layer when there is nothing to remove', () => {
    const layer = { security: { disableYoloMode: true } };
    expect(withoutFolderTrustKey(layer)).toBe(layer);
    const odd = { security: 'folderTrust' };
    expect(withoutFolderTrustKey(odd)).toBe(odd);
  });
});
