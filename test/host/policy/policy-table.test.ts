import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PolicyEngine, type PolicySettings } from '../../../host/policy/policy-engine.js';
import { ToolScheduler } from '../../../host/scheduler/scheduler.js';
import type { ApprovalMode, ConfirmationRequest, Confirmer } from '../../../host/scheduler/types.js';
import { bundledModule, ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { startHarness, type Harness } from '../scheduler/scheduler-harness.js';

const FIXTURE = bundledModule(fileURLToPath(new URL('../scheduler/scheduler-fixture-server.mjs', import.meta.url)));

type Verdict = 'allow' | 'ask' | 'deny';
type Rule = 'none' | 'allowed' | 'confirmationRequired' | 'exclude';
type Cls = 'read-only' | 'edit' | 'exec' | 'info' | 'memory' | 'external';

/**
 * The policy table, written out once more as the specification the test holds the host to:
 * exclusions deny; plan denies all but read-only tools; yolo allows the rest; tools.confirmationRequired asks; read-only tools and
 * tools named by an allow rule run; autoEdit runs edits and fetches; everything else asks; a
 * headless run denies what would ask.
 */
function expected(mode: ApprovalMode, interactive: boolean, rule: Rule, cls: Cls): Verdict {
  if (rule === 'exclude') return 'deny';
  // plan: only read-only tools may run, whatever else the rules say.
  if (mode === 'plan' && cls !== 'read-only') return 'deny';
  let v: Verdict;
  if (mode === 'yolo') v = 'allow';
  else if (rule === 'confirmationRequired') v = 'ask';
  else if (cls === 'read-only' || rule === 'allowed') v = 'allow';
  else if ((cls === 'edit' || cls === 'info') && mode === 'autoEdit') v = 'allow';
  else v = 'ask';
  return v === 'ask' && !interactive ? 'deny' : v;
}

describe('one policy decision: every mode × tool class × rule through the real scheduler and servers', () => {
  const dir = tempDir('policy-table-');
  let h: Harness;
  let n = 0;

  const calls: Record<Cls, { name: string; args: () => Record<string, unknown> }> = {
    'read-only': { name: 'filesystem__read_file', args: () => ({ absolute_path: join(dir, 'seed.txt') }) },
    edit: { name: 'filesystem__write_file', args: () => ({ file_path: join(dir, `w${n}.txt`), content: 'x\n' }) },
    exec: { name: 'shell__run_shell_command', args: () => ({ command: 'echo hi' }) },
    info: { name: 'web__web_fetch', args: () => ({ prompt: `read https://c${n}.example.invalid/a` }) },
    memory: { name: 'memory__save_memory', args: () => ({ fact: `fact ${n}` }) },
    external: { name: 'fx__mutate', args: () => ({ id: `m${n}` }) },
  };

  beforeAll(async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'seed.txt'), 'seed\n');
    h = await startHarness({
      servers: [
        { alias: 'filesystem', entry: ENTRY.filesystem, args: ['--root', dir], builtIn: true },
        { alias: 'shell', entry: ENTRY.shell, args: ['--root', dir], builtIn: true },
        // A key, and an endpoint that refuses at once: the fetch asks first and then fails, which is enough here.
        {
          alias: 'web',
          entry: ENTRY.web,
          builtIn: true,
          env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9' },
        },
        { alias: 'memory', entry: ENTRY.memory, args: ['--memory-file', join(dir, 'GEMINI.md')], builtIn: true },
        { alias: 'fx', entry: FIXTURE, args: ['--log', join(dir, 'fx.log'), '--root', dir] },
      ],
      projectTempDir: dir,
    });
  }, 60_000);
  afterAll(() => h?.close());

  /** Runs one call under a fresh policy and reports what the user saw: asked, denied or let through. */
  async function observe(mode: ApprovalMode, interactive: boolean, rule: Rule, cls: Cls): Promise<Verdict> {
    n++;
    const call = calls[cls];
    const settings: PolicySettings = { tools: {} };
    if (rule === 'allowed') settings.tools!.allowed = [call.name];
    if (rule === 'confirmationRequired') settings.tools!.confirmationRequired = [call.name];
    if (rule === 'exclude') settings.tools!.exclude = [call.name];
    const seen: ConfirmationRequest[] = [];
    const confirmer: Confirmer = { confirm: async (r) => (seen.push(r), { decision: 'proceed_once' }) };
    const policy = new PolicyEngine({ settings, approvalMode: mode, interactive });
    const scheduler = new ToolScheduler({
      tools: h.tools,
      executor: h.executor,
      policy,
      confirmer,
      projectTempDir: dir,
    });
    const [done] = await scheduler.schedule(
      [{ callId: `t${n}`, name: call.name, args: call.args(), isClientInitiated: false, promptId: 'p' }],
      new AbortController().signal,
    );
    if (done.status === 'error' && done.response?.errorType === 'policy_denied') return seen.length ? 'ask' : 'deny';
    return seen.length > 0 ? 'ask' : 'allow';
  }

  const modes: ApprovalMode[] = ['default', 'autoEdit', 'yolo', 'plan'];
  const rules: Rule[] = ['none', 'allowed', 'confirmationRequired', 'exclude'];
  const classes: Cls[] = ['read-only', 'edit', 'exec', 'info', 'memory', 'external'];
  for (const mode of modes) {
    for (const interactive of [true, false]) {
      for (const rule of rules) {
        it(`${mode}${interactive ? '' : ' headless'}, ${rule}`, async () => {
          const got: Record<string, Verdict> = {};
          const want: Record<string, Verdict> = {};
          for (const cls of classes) {
            got[cls] = await observe(mode, interactive, rule, cls);
            want[cls] = expected(mode, interactive, rule, cls);
          }
          expect(got).toEqual(want);
        });
      }
    }
  }
});
