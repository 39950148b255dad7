import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Acknowledgements } from '../../../host/agents/acknowledged-agents.js';
import { readAgentFile } from '../../../host/agents/agent-files.js';
import {
  type AgentSetOptions,
  agentNotices,
  existingProjectAgentDirs,
  loadAgentSet,
} from '../../../host/agents/agent-set.js';
import { CODEBASE_INVESTIGATOR } from '../../../host/agents/builtin-agents.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-agentset-');
let n = 0;
const agentFile = (name: string, description = `${name} agent`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nYou are ${name}.\n`;
function write(dir: string, files: Record<string, string>) {
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
}
/** A fresh home and project: `<case>/home`, `<case>/proj`. */
function layout() {
  const dir = join(base, `case${++n}`);
  const home = join(dir, 'home');
  const proj = join(dir, 'proj');
  mkdirSync(home, { recursive: true });
  mkdirSync(proj, { recursive: true });
  return { dir, home, proj };
}
const opts = (o: Partial<AgentSetOptions> & { cwd: string; home: string }): AgentSetOptions => ({
  trusted: true,
  acknowledgements: {},
  settings: {},
  ...o,
});
/** Acknowledgements of every agent file in a folder for a project, as `/agents acknowledge` would write them. */
function acked(project: string, dir: string, names: string[]): Acknowledgements {
  const forProject: Record<string, string> = {};
  for (const name of names) {
    const def = readAgentFile(join(dir, `${name}.md`), { path: dir, source: 'project', format: 'gemini' });
    forProject[name] = def.hash!;
  }
  return { [project]: forProject };
}
const names = (defs: { name: string }[]) => defs.map((d) => d.name);

describe('loadAgentSet', () => {
  it('the built-in comes first, then user, then extension agents', () => {
    const { dir, home, proj } = layout();
    write(join(home, '.gemini', 'agents'), { 'mine.md': agentFile('mine') });
    write(join(dir, 'ext', 'agents'), { 'helper.md': agentFile('helper') });
    const set = loadAgentSet(opts({ cwd: proj, home, extensions: [{ name: 'ext', path: join(dir, 'ext') }] }));
    expect(names(set.agents)).toEqual([CODEBASE_INVESTIGATOR, 'mine', 'helper']);
    expect(set.agents.map((a) => a.source)).toEqual(['built-in', 'user', 'extension']);
    expect(set.errors).toEqual([]);
  });

  it('an untrusted folder: project agents are not read at all', () => {
    const { home, proj } = layout();
    write(join(proj, '.gemini', 'agents'), { 'evil.md': agentFile('evil') });
    const set = loadAgentSet(opts({ cwd: proj, home, trusted: false }));
    expect(names(set.agents)).toEqual([CODEBASE_INVESTIGATOR]);
    expect(set.unacknowledged).toEqual([]);
    expect(existingProjectAgentDirs(proj)).toEqual([join(proj, '.gemini', 'agents')]);
  });

  it('a trusted project agent waits for acknowledgement of its exact content', () => {
    const { home, proj } = layout();
    const agents = join(proj, '.gemini', 'agents');
    write(agents, { 'helper.md': agentFile('helper') });
    const before = loadAgentSet(opts({ cwd: proj, home }));
    expect(names(before.agents)).toEqual([CODEBASE_INVESTIGATOR]);
    expect(names(before.unacknowledged)).toEqual(['helper']);
    expect(agentNotices(before)).toEqual([
      'New agents were found in this project and are not enabled until you acknowledge them: helper. In the chat, /agents lists them and /agents acknowledge enables them.',
    ]);

    const acks = acked(proj, agents, ['helper']);
    expect(names(loadAgentSet(opts({ cwd: proj, home, acknowledgements: acks })).agents)).toContain('helper');

    // An edit after the acknowledgement asks again.
    write(agents, { 'helper.md': agentFile('helper', 'now does something else') });
    const edited = loadAgentSet(opts({ cwd: proj, home, acknowledgements: acks }));
    expect(names(edited.unacknowledged)).toEqual(['helper']);
    // Acknowledged for another project does not count here.
    const elsewhere = loadAgentSet(opts({ cwd: proj, home, acknowledgements: { '/other': acks[proj]! } }));
    expect(names(elsewhere.agents)).not.toContain('helper');
  });

  it('the first definition of a name wins: a project agent never replaces the built-in, and shadows a user agent only with a notice', () => {
    const { home, proj } = layout();
    const agents = join(proj, '.gemini', 'agents');
    write(agents, { 'a.md': agentFile(CODEBASE_INVESTIGATOR, 'hijack'), 'b.md': agentFile('mine', 'project') });
    write(join(home, '.gemini', 'agents'), { 'mine.md': agentFile('mine', 'user') });
    const acks: Acknowledgements = {};
    acks[proj] = {
      [CODEBASE_INVESTIGATOR]: readAgentFile(join(agents, 'a.md'), {
        path: agents,
        source: 'project',
        format: 'gemini',
      }).hash!,
      mine: readAgentFile(join(agents, 'b.md'), { path: agents, source: 'project', format: 'gemini' }).hash!,
    };
    const set = loadAgentSet(opts({ cwd: proj, home, acknowledgements: acks }));
    expect(set.agents.map((a) => [a.name, a.source])).toEqual([
      [CODEBASE_INVESTIGATOR, 'built-in'],
      ['mine', 'project'],
    ]);
    const duplicate = (name: string) =>
      `Duplicate agent name '${name}' detected. The later definition will be ignored. Rename one of the agents to avoid this conflict.`;
    expect(set.errors).toEqual([duplicate(CODEBASE_INVESTIGATOR), duplicate('mine')]);
  });

  it('run from the home folder, its agents are read once, as the user agents', () => {
    const { home } = layout();
    write(join(home, '.gemini', 'agents'), { 'mine.md': agentFile('mine') });
    const set = loadAgentSet(opts({ cwd: home, home }));
    expect(set.agents.map((a) => [a.name, a.source])).toEqual([
      [CODEBASE_INVESTIGATOR, 'built-in'],
      ['mine', 'user'],
    ]);
    // Not also offered as a project agent waiting for acknowledgement.
    expect(set.unacknowledged).toEqual([]);
    expect(set.errors).toEqual([]);
  });

  it('settings: enableAgents false turns them all off; overrides disable or limit one agent', () => {
    const { home, proj } = layout();
    write(join(home, '.gemini', 'agents'), { 'mine.md': agentFile('mine') });
    expect(loadAgentSet(opts({ cwd: proj, home, settings: { experimental: { enableAgents: false } } })).agents).toEqual(
      [],
    );
    const set = loadAgentSet(
      opts({
        cwd: proj,
        home,
        settings: {
          agents: {
            overrides: {
              [CODEBASE_INVESTIGATOR]: { enabled: false },
              mine: { runConfig: { maxTurns: 5, maxTimeMinutes: 2.5 } },
            },
          },
        },
      }),
    );
    expect(names(set.disabled)).toEqual([CODEBASE_INVESTIGATOR]);
    expect(set.agents.map((a) => [a.name, a.maxTurns, a.timeoutMinutes])).toEqual([['mine', 5, 10]]);
  });

  it('bad limits and inherited keys in overrides are ignored', () => {
    const { home, proj } = layout();
    write(join(home, '.gemini', 'agents'), { 'constructor.md': agentFile('constructor') });
    const set = loadAgentSet(
      opts({ cwd: proj, home, settings: { agents: { overrides: { constructor: { runConfig: { maxTurns: -1 } } } } } }),
    );
    expect(set.agents.find((a) => a.name === 'constructor')?.maxTurns).toBe(30);
    const plain = loadAgentSet(opts({ cwd: proj, home, settings: { agents: { overrides: {} } } }));
    expect(names(plain.agents)).toContain('constructor');
  });

  it('an extension agent linked from outside the extension is refused, with the reason', () => {
    const { dir, home, proj } = layout();
    write(join(dir, 'outside'), { 'x.md': agentFile('x') });
    mkdirSync(join(dir, 'ext', 'agents'), { recursive: true });
    symlinkSync(join(dir, 'outside', 'x.md'), join(dir, 'ext', 'agents', 'x.md'));
    const set = loadAgentSet(opts({ cwd: proj, home, extensions: [{ name: 'ext', path: join(dir, 'ext') }] }));
    expect(names(set.agents)).toEqual([CODEBASE_INVESTIGATOR]);
    expect(set.errors).toHaveLength(1);
    expect(set.errors[0]).toMatch(
      /^Agent loading error: Failed to load agent from .*x\.md: it leads outside its extension/,
    );
  });
});
