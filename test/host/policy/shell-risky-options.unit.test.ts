import { describe, expect, it } from 'vitest';
import { PolicyEngine } from '../../../host/policy/policy-engine.js';
import type { ApprovalMode, ToolRef } from '../../../host/scheduler/types.js';

const shell: ToolRef = {
  exposedName: 'shell__run_shell_command',
  serverAlias: 'shell',
  toolName: 'run_shell_command',
  description: '',
  readOnly: false,
  confirmsInCall: true,
  trusted: false,
  builtIn: true,
};

const ALLOWED = [
  'git status',
  'git log',
  'git diff',
  'git show',
  'git grep',
  'git ls-remote',
  'git format-patch',
  'sort',
  'find',
  'sed',
  'awk',
  'tee',
  'uniq',
  'curl',
  'wget',
  'tar',
  'rg',
  'fd',
  'man',
  'less',
  'ls',
  'cat',
].map((c) => `run_shell_command(${c})`);

const decide = (command: string, mode: ApprovalMode = 'default') =>
  new PolicyEngine({ settings: { tools: { allowed: ALLOWED } }, approvalMode: mode, interactive: true })
    .decide(shell, { args: { command } })
    .then((d) => d.decision);

describe('allow-listed read commands: options that write files or run programs ask', () => {
  const asks = [
    "git log -1 --format='[core]%n fsmonitor = x' --output=.git/config",
    'git log --output .git/config',
    'git diff --output=/tmp/x',
    'git show HEAD --output=x',
    'git grep -Ovim foo',
    'git grep --open-files-in-pager=x foo',
    'git ls-remote --upload-pack=evil .',
    'git ls-remote -u evil .',
    'git format-patch -o out HEAD~1',
    'git log *',
    'git log $X',
    'sort -o out in',
    'sort -oout in',
    'sort --output=out in',
    'sort -ro out in',
    'find . -fprint out',
    'find . -fprintf out %p',
    'find . -fls out',
    'find . -delete',
    'find . -name x -exec rm {} ;',
    'find . -execdir ls ;',
    'find . -name *.ts',
    'sed -i s/a/b/ f',
    'sed --in-place s/a/b/ f',
    "sed 's/a/b/w out' f",
    "sed -n '1w out' f",
    "sed '1e id' f",
    'awk \'{ print > "out" }\' f',
    'awk \'BEGIN { system("id") }\'',
    'tee out',
    'uniq in out',
    'curl -o out https://example.com',
    'curl -O https://example.com/x',
    'curl --output out https://example.com',
    'wget https://example.com',
    'tar xf a.tar',
    'tar -xf a.tar',
    'tar -tf a.tar --to-command=id',
    'tar -I evil -tf a.tar',
    'rg --pre evil foo',
    'fd -x rm',
    'man -P evil ls',
    'less -o log f',
    'ls && git log --output=x',
    'git --git-dir=elsewhere/.git log',
    'git --exec-path=/tmp/x log',
  ];
  for (const command of asks) {
    it(`asks: ${command}`, async () => {
      expect(await decide(command)).toBe('ask');
      expect(await decide(command, 'autoEdit')).toBe('ask');
    });
  }

  const allows = [
    'git status',
    'git log -5 --oneline',
    'git log --output-indicator-new=+ -p',
    'git diff HEAD~1 -- src/a.ts',
    'git log -- *.ts',
    'git grep -n foo',
    'git show HEAD:README.md',
    'sort -r in',
    'sort -u in',
    'find . -name x -print',
    "find . -name '*.ts' -type f",
    "sed -n '1,5p' f",
    "sed 's/a/b/g' f",
    "awk '{ print $1 }' f",
    'uniq in',
    'curl https://example.com',
    'wget -O- https://example.com',
    'tar -tf a.tar',
    'tar tf a.tar',
    'rg -n foo src',
    'ls -la',
    'cat README.md',
  ];
  for (const command of allows) {
    it(`allows: ${command}`, async () => {
      expect(await decide(command)).toBe('allow');
    });
  }

  it('a rule for all of git still asks for -c and --git-dir', async () => {
    const git = (command: string) =>
      new PolicyEngine({ settings: { tools: { allowed: ['run_shell_command(git)'] } }, interactive: true })
        .decide(shell, { args: { command } })
        .then((d) => d.decision);
    expect(await git('git -c core.fsmonitor=x status')).toBe('ask');
    expect(await git('git --git-dir=x/.git log')).toBe('ask');
    expect(await git('git log -c')).toBe('allow');
    expect(await git('git status')).toBe('allow');
  });

  it('yolo still runs everything', async () => {
    expect(await decide('git log --output=.git/config', 'yolo')).toBe('allow');
  });
});
