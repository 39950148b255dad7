import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { substituteSystemMd, systemMdPath, writeSystemMdPath } from '../../../host/core/system-md.js';

describe('GEMINI_SYSTEM_MD, as Gemini CLI 0.61 reads it', () => {
  it('1/true is .gemini/system.md of the folder; 0/false or unset keeps ours; a path is taken as given', () => {
    expect(systemMdPath({ GEMINI_SYSTEM_MD: 'true' }, '/p')).toBe('/p/.gemini/system.md');
    expect(systemMdPath({ GEMINI_SYSTEM_MD: ' 1 ' }, '/p')).toBe('/p/.gemini/system.md');
    expect(systemMdPath({ GEMINI_SYSTEM_MD: 'FALSE' }, '/p')).toBeUndefined();
    expect(systemMdPath({ GEMINI_SYSTEM_MD: '0' }, '/p')).toBeUndefined();
    expect(systemMdPath({}, '/p')).toBeUndefined();
    expect(systemMdPath({ GEMINI_SYSTEM_MD: 'prompts/core.md' }, '/p')).toBe('/p/prompts/core.md');
    expect(systemMdPath({ GEMINI_SYSTEM_MD: '~/core.md' }, '/p')).toBe(join(homedir(), 'core.md'));
  });

  it('GEMINI_WRITE_SYSTEM_MD reads the same, but never names the file the override comes from', () => {
    const env = { GEMINI_WRITE_SYSTEM_MD: 'true', GEMINI_SYSTEM_MD: 'true' };
    expect(writeSystemMdPath({ GEMINI_WRITE_SYSTEM_MD: 'true' }, '/p')).toBe('/p/.gemini/system.md');
    expect(writeSystemMdPath(env, '/p', systemMdPath(env, '/p'))).toBeUndefined();
    expect(writeSystemMdPath({ ...env, GEMINI_WRITE_SYSTEM_MD: 'out.md' }, '/p', systemMdPath(env, '/p'))).toBe(
      '/p/out.md',
    );
  });

  it("fills Gemini CLI's variables with what the model has here", () => {
    const text = substituteSystemMd(
      'Read with ${read_file_ToolName}; run with ${shell__run_shell_command_ToolName}; ${nope_ToolName}.\n${AvailableTools}\n${AgentSkills}|${SubAgents}',
      {
        skills: 'SKILLS',
        subAgents: '',
        tools: [
          { name: 'filesystem__read_file', geminiName: 'read_file' },
          { name: 'shell__run_shell_command', geminiName: 'run_shell_command' },
        ],
      },
    );
    expect(text).toBe(
      'Read with filesystem__read_file; run with shell__run_shell_command; ${nope_ToolName}.\n- filesystem__read_file\n- shell__run_shell_command\nSKILLS|',
    );
    expect(substituteSystemMd('${AvailableTools}', { skills: '', subAgents: '', tools: [] })).toBe(
      'No tools are currently available.',
    );
  });
});
