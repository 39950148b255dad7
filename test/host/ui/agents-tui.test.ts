import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

const READER =
  '---\nname: reader\ndescription: Reads files and reports.\ntools: [read_file]\n---\nYou are the Reader.\n';
const system = (g: ScriptedGemini) =>
  JSON.stringify(g.requestsOf('streamGenerateContent').at(-1)!.body.systemInstruction ?? {});

describeTmux('/agents in the chat, and an agent run as one card', () => {
  const ws = workspace();
  const userAgents = join(ws.home, '.gemini', 'agents');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  let notes: string;

  beforeAll(async () => {
    ws.settings(ONLY('filesystem'));
    mkdirSync(userAgents, { recursive: true });
    writeFileSync(join(userAgents, 'helper.md'), '---\nname: helper\ndescription: Helps out.\n---\nYou help.\n');
    ws.file('.gemini/agents/reader.md', READER);
    notes = ws.file('notes.txt', 'ship it on Friday\n');
    gemini = await startScriptedGemini([
      reply.text('one'),
      reply.calls({ id: 'm1', name: 'invoke_agent', args: { agent_name: 'reader', prompt: 'read notes.txt' } }),
      reply.calls({ id: 's1', name: 'filesystem__read_file', args: { absolute_path: notes } }),
      reply.calls({ id: 's2', name: 'complete_task', args: { result: 'It says: ship it on Friday' } }),
      reply.text('Friday it is.'),
    ]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: {
        GEMINI_CLI_HOME: ws.home,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        // Project agents make the folder ask for trust; this run trusts it.
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 160,
      height: 50,
    });
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('says at start that a new project agent is not enabled, and /agents lists every agent with its source', async () => {
    await ui.waitFor('New agents were found in this project and are not enabled until you acknowledge them: reader.');
    ui.submit('/agents');
    const screen = await ui.waitFor('New project agents');
    expect(screen).toContain('Codebase Investigator Agent (codebase_investigator) [built-in]');
    expect(screen).toContain(`helper [user: ${join(userAgents, 'helper.md')}]`);
    expect(screen).toContain(`reader [project: ${join(ws.cwd, '.gemini', 'agents', 'reader.md')}]`);
    ui.submit('hello');
    await ui.waitFor('one');
    expect(system(gemini)).toContain('- helper -> Helps out.');
    expect(system(gemini)).not.toContain('- reader ->');
  });

  it('/agents acknowledge enables it for its content; its run is one card listing the sub-calls', async () => {
    ui.submit('/agents acknowledge');
    await ui.waitFor('Acknowledge and enable');
    ui.keys('Enter');
    await ui.waitFor('Enabled reader');
    const acks = JSON.parse(readFileSync(join(ws.home, '.gemini', 'acknowledgments', 'agents.json'), 'utf8'));
    expect(acks[ws.cwd]).toEqual({ reader: createHash('sha256').update(READER).digest('hex') });
    ui.submit('when do we ship?');
    const screen = await ui.waitFor('Friday it is.');
    expect(system(gemini)).toContain('- reader -> Reads files and reports.');
    expect(screen).toContain('invoke_agent');
    expect(screen).toMatch(/✓ filesystem__read_file \{"absolute_path":"[^"]*notes\.txt"\}/);
    expect(screen).toContain('Termination Reason: GOAL');
    // The sub-call has no card of its own: it appears once, inside the invoke_agent card.
    expect(screen.match(/filesystem__read_file/g)).toHaveLength(1);
  });

  it('Esc while the agent works cancels its run as one cancelled card, and the chat goes on', async () => {
    gemini.push(
      reply.calls({ id: 'm2', name: 'invoke_agent', args: { agent_name: 'reader', prompt: 'read it again' } }),
      reply.calls({ id: 's3', name: 'filesystem__read_file', args: { absolute_path: notes } }),
      { ...reply.text('never finishes'), hang: true },
      reply.text('Back to you.'),
    );
    ui.submit('read it again');
    // The sub-call's line shows in the running card before the agent's next request, which hangs.
    await ui.waitFor(/invoke_agent[\s\S]*executing[\s\S]*✓ filesystem__read_file[\s\S]*esc to cancel/);
    ui.keys('Escape');
    await ui.waitFor(/- invoke_agent[\s\S]*cancelled/);
    ui.submit('still there?');
    await ui.waitFor('Back to you.');
  });

  it("/agents disable and enable write Gemini CLI's agents.overrides and take effect from the next request", async () => {
    gemini.push(reply.text('without helper'), reply.text('with helper'));
    const settingsFile = join(ws.home, '.gemini', 'settings.json');
    ui.submit('/agents disable helper');
    await ui.waitFor(/Agent "helper" disabled by setting it to disabled in project \(/);
    const workspaceFile = join(ws.cwd, '.gemini', 'settings.json');
    expect(JSON.parse(readFileSync(workspaceFile, 'utf8')).agents.overrides.helper.enabled).toBe(false);
    ui.submit('/agents');
    await ui.waitFor(/Disabled in settings[\s\S]*helper \[user:/);
    ui.submit('next');
    await ui.waitFor('without helper');
    expect(system(gemini)).not.toContain('- helper ->');
    ui.submit('/agents enable helper');
    await ui.waitFor(/Agent "helper" enabled by setting it to enabled in project \([^)]*\) and user \(/);
    // Enabling sets it in every file that does not say so yet, as Gemini CLI does.
    expect(JSON.parse(readFileSync(workspaceFile, 'utf8')).agents.overrides.helper.enabled).toBe(true);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8')).agents.overrides.helper.enabled).toBe(true);
    ui.submit('again');
    await ui.waitFor('with helper');
    expect(system(gemini)).toContain('- helper -> Helps out.');
  });
});
