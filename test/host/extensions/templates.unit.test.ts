import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newExtension } from '../../../host/extensions/templates.js';
import { tempDir } from '../../helpers/tmp.js';

const cwd = tempDir('gmc-templates-');
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'gemini-extension.json'), 'utf8'));

describe('newExtension', () => {
  it('no template: a manifest named after the folder, relative to cwd, and nothing else', () => {
    const dir = newExtension('plain', undefined, cwd);
    expect(dir).toBe(join(cwd, 'plain'));
    expect(manifestOf(dir)).toEqual({ name: 'plain', version: '1.0.0' });
    expect(readdirSync(dir)).toEqual(['gemini-extension.json']);
  });

  it('a folder name with other characters gives a valid extension name', () => {
    expect(manifestOf(newExtension('nested/My ext.v2', undefined, cwd)).name).toBe('My-ext-v2');
  });

  it('each template adds its files and manifest keys', () => {
    const context = newExtension('ctx', 'context', cwd);
    expect(manifestOf(context).contextFileName).toBe('GEMINI.md');
    expect(readFileSync(join(context, 'GEMINI.md'), 'utf8')).toMatch(/^# ctx\n/);

    const commands = newExtension('cmds', 'custom-commands', cwd);
    expect(readFileSync(join(commands, 'commands', 'fs', 'grep-code.toml'), 'utf8')).toContain('!{grep -r {{args}} .}');

    expect(manifestOf(newExtension('ex', 'exclude-tools', cwd)).excludeTools).toEqual(['run_shell_command(rm -rf)']);

    const server = newExtension('srv', 'mcp-server', cwd);
    expect(manifestOf(server).mcpServers).toEqual({
      srv: { command: 'node', args: ['${extensionPath}${/}server.js'] },
    });
    expect(existsSync(join(server, 'server.js'))).toBe(true);

    const skills = newExtension('sk', 'skills', cwd);
    expect(readFileSync(join(skills, 'skills', 'example', 'SKILL.md'), 'utf8')).toMatch(/^---\nname: example\n/);
  });

  it('an existing path is refused and left untouched', () => {
    mkdirSync(join(cwd, 'taken'));
    expect(() => newExtension('taken', 'context', cwd)).toThrow(`Path already exists: ${join(cwd, 'taken')}`);
    expect(readdirSync(join(cwd, 'taken'))).toEqual([]);
  });

  it('an unknown template is refused before anything is created, listing the templates', () => {
    expect(() => newExtension('nope', 'mcp', cwd)).toThrow(
      'Unknown template "mcp". Templates: context, custom-commands, exclude-tools, mcp-server, skills.',
    );
    expect(existsSync(join(cwd, 'nope'))).toBe(false);
  });
});
