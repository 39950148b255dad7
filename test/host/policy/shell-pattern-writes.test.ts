import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policy, project, replay, shell } from './policy-replay.js';

const ALLOW_GIT_READS = {
  commandRegex:
    '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "git (status|log|diff)"\ndecision = "allow"\npriority = 100\n',
  argsPattern:
    '[[rule]]\ntoolName = "run_shell_command"\nargsPattern = "\\"command\\":\\"git (status|log|diff)"\ndecision = "allow"\npriority = 100\n',
};

describe('an allow rule by pattern for a command does not allow its writes', () => {
  for (const [field, rule] of Object.entries(ALLOW_GIT_READS)) {
    it(`${field}: git status / log / diff run; with a redirection or --output they ask (headless: refused)`, async () => {
      const ws = project('a.txt');
      execFileSync('git', ['init', '-q'], { cwd: ws.cwd });
      const file = policy(ws, 'git.toml', rule);
      const { r, results } = await replay(
        ws,
        [
          shell('status', 'git status --short'),
          shell('statusTo', 'git status > F1'),
          shell('logTo', 'git log > F2'),
          shell('diffTo', 'git diff --output=F3'),
        ],
        ['--policy', file],
      );
      expect(r.code, r.stderr).toBe(0);
      expect(results.status?.status, JSON.stringify(results.status)).toBe('success');
      expect(results.status?.output).toContain('a.txt');
      for (const [id, out] of [
        ['statusTo', 'F1'],
        ['logTo', 'F2'],
        ['diffTo', 'F3'],
      ]) {
        expect(results[id]?.status, id).toBe('error');
        expect(JSON.stringify(results[id]), id).toContain('requires user confirmation');
        expect(existsSync(join(ws.cwd, out)), out).toBe(false);
      }
    });
  }
});
