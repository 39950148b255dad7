import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScope, settingsPathFor } from '../../../host/cli/mcp-shared.js';
import { FatalInputError } from '../../../host/errors.js';
import { tempDir } from '../../helpers/tmp.js';

const home = tempDir('gmc-mcpshared-');
const proj = join(home, 'proj');
mkdirSync(proj);
const env = { GEMINI_CLI_HOME: home };

describe('parseScope', () => {
  it('user or project; anything else is an input error naming the flag', () => {
    expect(parseScope('--scope', 'user')).toBe('user');
    expect(parseScope('-s', 'project')).toBe('project');
    expect(() => parseScope('--scope', 'workspace')).toThrow(FatalInputError);
    expect(() => parseScope('--scope', 'User')).toThrow('--scope must be "user" or "project", not "User".');
  });
});

describe('settingsPathFor', () => {
  it("the user file under the Gemini home, or the project's .gemini/settings.json", () => {
    expect(settingsPathFor('user', { cwd: proj, env })).toBe(join(home, '.gemini', 'settings.json'));
    expect(settingsPathFor('project', { cwd: proj, env })).toBe(join(proj, '.gemini', 'settings.json'));
  });

  it('the project scope in the home folder is refused: it would edit the user file by another name', () => {
    for (const cwd of [home, `${home}/`, join(proj, '..')])
      expect(() => settingsPathFor('project', { cwd, env }), cwd).toThrow(
        'The current directory is the home directory: use --scope user to edit the user settings.',
      );
    expect(settingsPathFor('user', { cwd: home, env })).toBe(join(home, '.gemini', 'settings.json'));
  });
});
