import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../host/load-settings.js';
import { hooksFor } from '../../../host/core/runtime-config.js';
import { hookName } from '../../../host/hooks/hook-config.js';
import { tempDir } from '../../helpers/tmp.js';

/** Real settings files in a temp home and trusted project, read the way the runtime reads them. */
function layout() {
  const root = tempDir('gmc-hook-switch-');
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(join(project, '.gemini'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    GEMINI_CLI_HOME: home,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(root, 'system.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(root, 'system-defaults.json'),
    PATH: process.env.PATH,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
  const write = (where: 'user' | 'workspace', data: unknown) =>
    writeFileSync(
      where === 'user' ? join(home, '.gemini/settings.json') : join(project, '.gemini/settings.json'),
      JSON.stringify(data),
    );
  const loaded = () =>
    hooksFor(loadSettings({ cwd: project, env }), project, () => {})
      .system.list()
      .map(hookName);
  return { write, loaded };
}

const two = {
  BeforeTool: [
    {
      hooks: [
        { type: 'command', name: 'guard', command: 'echo guard' },
        { type: 'command', command: 'echo audit' },
      ],
    },
  ],
};

describe("Gemini CLI's hook off-switches", () => {
  it('hooks load when nothing switches them off', () => {
    const t = layout();
    t.write('user', { hooks: two });
    expect(t.loaded()).toEqual(['guard', 'echo audit']);
  });

  it('hooksConfig.enabled: false turns every hook off, wherever it is defined', () => {
    const t = layout();
    t.write('user', { hooks: two, hooksConfig: { enabled: false } });
    t.write('workspace', { hooks: { AfterTool: [{ hooks: [{ type: 'command', command: 'echo ws' }] }] } });
    expect(t.loaded()).toEqual([]);
  });

  it('hooksConfig.disabled drops hooks by name or command; the lists of user and workspace add up', () => {
    const t = layout();
    t.write('user', { hooks: two, hooksConfig: { disabled: ['guard'] } });
    t.write('workspace', { hooksConfig: { disabled: ['echo audit'] } });
    expect(t.loaded()).toEqual([]);
    t.write('workspace', {});
    expect(t.loaded()).toEqual(['echo audit']);
  });

  it("older Gemini CLI's in-block hooks.enabled / hooks.disabled are honoured; hooksConfig.enabled wins", () => {
    const t = layout();
    t.write('user', { hooks: { ...two, disabled: ['echo audit'] } });
    expect(t.loaded()).toEqual(['guard']);
    t.write('user', { hooks: { ...two, enabled: false } });
    expect(t.loaded()).toEqual([]);
    t.write('user', { hooks: { ...two, enabled: false }, hooksConfig: { enabled: true } });
    expect(t.loaded()).toEqual(['guard', 'echo audit']);
  });
});
