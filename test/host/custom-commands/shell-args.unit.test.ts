import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { substituteShellArgs, UnsafeArgsPlacement } from '../../../host/custom-commands/shell-args.js';
import { tempDir } from '../../helpers/tmp.js';

const HOSTILE = [
  "'; touch PWNED; '",
  '"; touch PWNED; "',
  '$(touch PWNED)',
  '`touch PWNED`',
  'a\\',
  'it\'s "quoted" \\ $HOME',
  'line one\ntouch PWNED',
  '',
  '  two  spaces  ',
];

/** Templates as authors write them: the argument is printed between brackets, and must come back as typed. */
const TEMPLATES = [
  "printf '[%s]' {{args}}",
  "printf '[%s]' '{{args}}'",
  'printf \'[%s]\' "{{args}}"',
  'printf \'[%s]\' "pre {{args}} post"',
  "printf '[%s]' 'pre {{args}} post'",
  'printf \'[%s]\' "$(printf %s {{args}})"',
  'printf \'[%s]\' "$(printf %s "{{args}}")"',
  "printf '[%s]' --flag={{args}}",
];

const expected = (template: string, args: string): string => {
  if (template.includes('pre {{args}} post')) return `[pre ${args} post]`;
  if (template.startsWith("printf '[%s]' --flag")) return `[--flag=${args}]`;
  // An unquoted empty argument is no word at all (Gemini CLI's rule): printf then prints one empty field.
  return `[${args}]`;
};

describe('substituteShellArgs: {{args}} is one literal word in every quoting the author may use', () => {
  const dir = tempDir('gmc-shell-args-');
  for (const template of TEMPLATES) {
    it(`${template}`, () => {
      for (const args of HOSTILE) {
        const cwd = join(dir, String(Math.random()).slice(2));
        mkdirSync(cwd);
        const command = substituteShellArgs(template, args, 'test');
        const out = execFileSync('bash', ['-c', command], { cwd, encoding: 'utf8' });
        expect(existsSync(join(cwd, 'PWNED')), command).toBe(false);
        // $(…) drops trailing newlines, as it always does: compare the rest.
        const want = template.includes('$(') ? expected(template, args.replace(/\n+$/, '')) : expected(template, args);
        expect(out, command).toBe(want);
      }
    });
  }

  it('refuses the places no escaping makes safe, saying where the placeholder goes instead', () => {
    for (const template of [
      'echo `printf %s {{args}}`',
      "echo $'{{args}}'",
      'echo hi # {{args}}',
      'cat <<EOF\n{{args}}\nEOF',
    ]) {
      expect(() => substituteShellArgs(template, "'; touch PWNED", 'review')).toThrow(UnsafeArgsPlacement);
      expect(() => substituteShellArgs(template, 'x', 'review')).toThrow(
        /Command 'review': \{\{args\}\} .* single quotes/,
      );
    }
  });

  it('leaves a block without the placeholder as written', () => {
    expect(substituteShellArgs("git log -1 --format='%s'", "'; x", 'c')).toBe("git log -1 --format='%s'");
  });
});
