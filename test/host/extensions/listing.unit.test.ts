import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Enablement } from '../../../host/extensions/enablement.js';
import { extensionDetails, formatExtensions, formatSkills } from '../../../host/extensions/listing.js';
import type { LoadedExtension } from '../../../host/extensions/loader.js';
import { tempDir } from '../../helpers/tmp.js';
import { fakeExtension } from './fake-extension.js';

const ext = (name: string, over: Partial<LoadedExtension> = {}) => fakeExtension(name, over, '1.2.0', '/exts');

describe('formatExtensions', () => {
  it('one line each, disabled ones marked; none installed says so', () => {
    expect(formatExtensions([ext('a'), ext('b', { enabled: false })])).toBe('✓ a (1.2.0)\n✗ b (1.2.0) [disabled]\n');
    expect(formatExtensions([])).toBe('No extensions installed.\n');
  });

  it("details: Gemini CLI's fields, settings values hidden when sensitive", () => {
    const e = ext('full', {
      installMetadata: {
        source: 'https://github.com/o/full',
        type: 'git',
        ref: 'v1',
      } as LoadedExtension['installMetadata'],
      contextFiles: ['/exts/full/GEMINI.md'],
      mcpServers: { srv: { command: 'node' } },
      excludeTools: ['run_shell_command(rm)'],
      manifest: {
        name: 'full',
        version: '1.2.0',
        settings: [
          { name: 'Key', envVar: 'API_KEY', sensitive: true },
          { name: 'Region', envVar: 'REGION' },
          { name: 'Unset', envVar: 'OTHER' },
        ],
      } as LoadedExtension['manifest'],
      settingsEnv: { API_KEY: 'sk-secret', REGION: 'eu' },
    });
    const details = new Map([
      [
        'full',
        {
          enabledForUser: true,
          enabledForWorkspace: false,
          skills: [{ name: 'sk', description: 'does x', location: '/l', body: '' }],
          commands: ['/deploy'],
        },
      ],
    ]);
    const text = formatExtensions([e], true, details);
    expect(text).toBe(
      [
        '✓ full (1.2.0)',
        ' Path: /exts/full',
        ' Source: https://github.com/o/full (Type: git)',
        ' Ref: v1',
        ' Enabled (User): true',
        ' Enabled (Workspace): false',
        ' Context files:',
        '  /exts/full/GEMINI.md',
        ' MCP servers:',
        '  srv',
        ' Excluded tools:',
        '  run_shell_command(rm)',
        ' Agent skills:',
        '  sk: does x',
        ' Commands:',
        '  /deploy',
        ' Settings:',
        '  Key (API_KEY): [set]',
        '  Region (REGION): eu',
        '  Unset (OTHER): [not set]',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('sk-secret');
  });

  it("an extension's own strings cannot carry terminal escapes", () => {
    const text = formatExtensions([ext('x', { version: '1\u001b[2J\u001b]0;owned\u0007' })]);
    expect(text).not.toMatch(/[\u001b\u0007]/);
  });
});

describe('formatSkills', () => {
  it('name, extension, description and location; escapes made visible', () => {
    expect(
      formatSkills([
        { name: 'a', description: 'does a', location: '/s/a/SKILL.md', body: '' },
        { name: 'b', description: 'evil\u001b[31m', location: '/e/b/SKILL.md', body: '', extension: 'e' },
      ]),
    ).toMatch(/^a: does a\n {2}\/s\/a\/SKILL\.md\nb \[e\]: evil[^\u001b]*\n {2}\/e\/b\/SKILL\.md\n$/);
    expect(formatSkills([])).toBe('No agent skills found.\n');
  });
});

describe('extensionDetails', () => {
  it('enablement per scope and the skills and commands each extension brings', () => {
    const home = tempDir('gmc-listing-');
    const extPath = join(home, '.gemini', 'extensions', 'tools');
    mkdirSync(join(extPath, 'skills', 'lint'), { recursive: true });
    mkdirSync(join(extPath, 'commands', 'git'), { recursive: true });
    writeFileSync(join(extPath, 'skills', 'lint', 'SKILL.md'), '---\nname: lint\ndescription: Lints.\n---\nDo it.');
    writeFileSync(join(extPath, 'commands', 'git', 'sync.toml'), 'prompt = "sync"\n');
    const project = join(home, 'proj');
    mkdirSync(project);
    new Enablement(join(home, '.gemini', 'extensions')).set('tools', project, false);
    const d = extensionDetails([ext('tools', { path: extPath, enabled: false })], {
      cwd: project,
      homeDir: home,
      env: {},
    });
    const tools = d.get('tools');
    expect(tools?.enabledForUser).toBe(true);
    expect(tools?.enabledForWorkspace).toBe(false);
    expect(tools?.skills.map((s) => s.name)).toEqual(['lint']);
    expect(tools?.commands).toEqual(['/git:sync']);
  });
});
