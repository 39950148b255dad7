import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, type Workspace, workspace } from '../../helpers/run-host.js';
import { hook, records } from '../hooks/record-hook.js';

type Part = { text?: string; functionResponse?: { name: string; response: Record<string, unknown> } };
type Body = {
  contents: { role: string; parts: Part[] }[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations?: { name: string }[] }[];
};

const declared = (b: Body) => b.tools?.flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name) ?? [];
const system = (b: Body) => b.systemInstruction?.parts.map((p) => p.text).join('\n') ?? '';
const answer = (b: Body) =>
  JSON.stringify(b.contents.at(-1)!.parts.find((p) => p.functionResponse)?.functionResponse?.response ?? {});

const READER = `---
name: reader
description: Reads files and reports what they say.
tools:
  - read_file
max_turns: 5
---
You are the Reader. Report exactly what the files say.
`;

/** The folder trusted as `gemini-mcp trust` records it: project agents make a folder ask for trust. */
function trust(ws: Workspace): void {
  writeFileSync(join(ws.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws.cwd]: 'TRUST_FOLDER' }));
}

/** A project agent file, acknowledged (as `/agents acknowledge` records it) unless told otherwise. */
function projectAgent(ws: Workspace, name: string, text: string, acknowledged = true): void {
  ws.file(`.gemini/agents/${name}.md`, text);
  if (!acknowledged) return;
  const file = join(ws.home, '.gemini', 'acknowledgments', 'agents.json');
  mkdirSync(join(file, '..'), { recursive: true });
  const hash = createHash('sha256').update(text).digest('hex');
  writeFileSync(file, JSON.stringify({ [ws.cwd]: { [name]: hash } }));
}

describe('subagents (invoke_agent)', () => {
  const endpoint = scriptedEndpoints();

  it("counts the subagent's model requests and tokens with the session's (headless json stats)", async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const notes = ws.file('notes.txt', 'ship it\n');
    trust(ws);
    projectAgent(ws, 'reader', READER);
    const ep = await endpoint(
      reply.calls({ id: 'm1', name: 'invoke_agent', args: { agent_name: 'reader', prompt: 'Read notes.txt' } }),
      reply.calls({ id: 's1', name: 'filesystem__read_file', args: { absolute_path: notes } }),
      reply.calls({ id: 's2', name: 'complete_task', args: { result: 'it says ship it' } }),
      reply.text('It says ship it.'),
    );
    const r = await runHost(['-p', 'what do the notes say?', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.response).toBe('It says ship it.');
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(4);
    // Every request the endpoint answered is counted (each reply reports 15 tokens), the agent's two too.
    const models = Object.values(out.stats.models) as { api: { totalRequests: number }; tokens: { total: number } }[];
    expect(models.reduce((n, m) => n + m.api.totalRequests, 0)).toBe(4);
    expect(models.reduce((n, m) => n + m.tokens.total, 0)).toBe(60);
    expect(out.stats.tools.byName).toMatchObject({ invoke_agent: { count: 1 }, filesystem__read_file: { count: 1 } });
  });

  it('runs a project agent with only its tools: read_file works, another tool is refused, complete_task answers the main model', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const notes = ws.file('notes.txt', 'the launch is on Tuesday\n');
    trust(ws);
    projectAgent(ws, 'reader', READER);
    const ep = await endpoint(
      reply.calls({
        id: 'm1',
        name: 'invoke_agent',
        args: { agent_name: 'reader', prompt: 'What does notes.txt say?' },
      }),
      reply.calls({ id: 's1', name: 'filesystem__read_file', args: { absolute_path: notes } }),
      reply.calls({
        id: 's2',
        name: 'filesystem__write_file',
        args: { file_path: join(ws.cwd, 'pwned.txt'), content: 'x' },
      }),
      reply.calls({ id: 's3', name: 'complete_task', args: { result: 'notes.txt: the launch is on Tuesday' } }),
      reply.text('The launch is on Tuesday.'),
    );
    const r = await runHost(['-p', 'when is the launch?'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('The launch is on Tuesday.');
    const [main1, sub1, sub2, sub3, main2] = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    expect(declared(main1!)).toContain('invoke_agent');
    expect(system(main1!)).toContain('- reader -> Reads files and reports what they say.');
    // The sub-conversation: the agent's prompt, its one tool and complete_task, the parent's prompt as query.
    expect(system(sub1!)).toContain('You are the Reader. Report exactly what the files say.');
    expect(declared(sub1!).sort()).toEqual(['complete_task', 'filesystem__read_file']);
    expect(sub1!.contents[0]!.parts.map((p) => p.text).join('')).toBe('What does notes.txt say?');
    expect(answer(sub2!)).toContain('the launch is on Tuesday');
    expect(answer(sub3!)).toContain("Unauthorized tool call: 'filesystem__write_file' is not available to this agent.");
    expect(existsSync(join(ws.cwd, 'pwned.txt'))).toBe(false);
    // The main model's answer is 0.61's text; the sub-conversation never enters the main history.
    expect(answer(main2!)).toContain(
      "Subagent 'reader' finished.\\nTermination Reason: GOAL\\nResult:\\nnotes.txt: the launch is on Tuesday",
    );
    expect(JSON.stringify(main2!.contents)).not.toContain('You are the Reader');
  });

  it("does not offer an untrusted folder's project agents, even acknowledged, and says they were skipped", async () => {
    const ws = workspace();
    ws.settings(ONLY());
    // Not in trustedFolders.json: a folder holding project agents is not trusted until the user says so.
    projectAgent(ws, 'reader', READER);
    const ep = await endpoint(
      reply.calls({ id: 'm1', name: 'invoke_agent', args: { agent_name: 'reader', prompt: 'read it' } }),
      reply.text('ok'),
    );
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`agents in ${join(ws.cwd, '.gemini', 'agents')}`);
    const [main1, main2] = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    expect(system(main1!)).toContain('- codebase_investigator ->');
    expect(system(main1!)).not.toContain('- reader ->');
    expect(answer(main2!)).toContain("Subagent 'reader' not found.");
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(2);
  });

  it('does not offer a project agent until it is acknowledged for its current content', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    trust(ws);
    projectAgent(ws, 'reader', READER);
    // Edited after it was acknowledged: asked again, not run.
    ws.file('.gemini/agents/reader.md', READER.replace('Report exactly', 'Exfiltrate'));
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [main1] = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    expect(system(main1!)).toContain('- codebase_investigator ->');
    expect(system(main1!)).not.toContain('- reader ->');
  });

  it("loads Claude Code's ~/.claude/agents files: tools as a comma list of Claude Code names", async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const dir = join(ws.home, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'finder.md'),
      '---\nname: finder\ndescription: Finds files: by name or content.\ntools: Glob, Grep\nmodel: sonnet\ncolor: blue\n---\nYou find files.\n',
    );
    const ep = await endpoint(
      reply.calls({ id: 'm1', name: 'invoke_agent', args: { agent_name: 'finder', prompt: 'find the notes' } }),
      reply.calls({ id: 's1', name: 'complete_task', args: { result: 'none found' } }),
      reply.text('Nothing.'),
    );
    const r = await runHost(['-p', 'find'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [main1, sub1, main2] = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    expect(system(main1!)).toContain('- finder -> Finds files: by name or content.');
    expect(system(sub1!)).toContain('You find files.');
    expect(declared(sub1!).sort()).toEqual(['complete_task', 'filesystem__glob', 'filesystem__search_file_content']);
    expect(answer(main2!)).toContain('Result:\\nnone found');
  });

  it('names an agent file that does not load, and still runs', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const dir = join(ws.home, '.gemini', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'typo.md'), '---\nname: typo\ndescription: d\ntool: [read_file]\n---\nbody\n');
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `Agent loading error: Failed to load agent from ${join(dir, 'typo.md')}: Validation failed`,
    );
    expect(readFileSync(join(dir, 'typo.md'), 'utf8')).toContain('tool: [read_file]');
  });
});

describe('subagent limits and the built-in investigator', () => {
  const endpoint = scriptedEndpoints();

  it("at max_turns the agent gets one last turn told to call complete_task, and finishes as 0.61's GOAL", async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const notes = ws.file('notes.txt', 'alpha\n');
    const dir = join(ws.home, '.gemini', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'slow.md'),
      '---\nname: slow\ndescription: Slow.\ntools: [read_file]\nmax_turns: 1\n---\nYou are slow.\n',
    );
    const ep = await endpoint(
      reply.calls({ id: 'm1', name: 'invoke_agent', args: { agent_name: 'slow', prompt: 'read' } }),
      reply.calls({ id: 's1', name: 'filesystem__read_file', args: { absolute_path: notes } }),
      reply.calls({ id: 's2', name: 'complete_task', args: { result: 'partial: alpha' } }),
      reply.text('ok'),
    );
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [, , last, main2] = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    // The last turn answers the read still open, then tells the agent to finish.
    const lastMessage = JSON.stringify(last!.contents.at(-1));
    expect(lastMessage).toContain('alpha');
    expect(lastMessage).toContain(
      'You have exceeded the maximum number of turns. You have one final chance to complete the task',
    );
    expect(answer(main2!)).toContain('Termination Reason: GOAL\\nResult:\\npartial: alpha');
  });

  it('an agent that stops without complete_task, twice, ends as ERROR_NO_COMPLETE_TASK_CALL', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const dir = join(ws.home, '.gemini', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'chatty.md'), '---\nname: chatty\ndescription: Talks.\ntools: []\n---\nYou talk.\n');
    const ep = await endpoint(
      reply.calls({ id: 'm1', name: 'invoke_agent', args: { agent_name: 'chatty', prompt: 'hi' } }),
      reply.text('I would rather chat.'),
      reply.text('Still chatting.'),
      reply.text('It gave up.'),
    );
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('It gave up.');
    const requests = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    expect(declared(requests[1]!)).toEqual(['complete_task']);
    expect(JSON.stringify(requests[2]!.contents.at(-1))).toContain('You have stopped calling tools without finishing.');
    expect(answer(requests[3]!)).toContain(
      "Termination Reason: ERROR_NO_COMPLETE_TASK_CALL\\nResult:\\nAgent stopped calling tools but did not call 'complete_task'.",
    );
  });

  it('codebase_investigator reads with its four read-only tools and answers with its JSON report', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const report = {
      SummaryOfFindings: 'The entry is main.ts.',
      ExplorationTrace: ['listed the folder'],
      RelevantLocations: [{ FilePath: 'main.ts', Reasoning: 'entry', KeySymbols: ['main'] }],
    };
    const ep = await endpoint(
      reply.calls({
        id: 'm1',
        name: 'invoke_agent',
        args: { agent_name: 'codebase_investigator', prompt: 'Find the entry.' },
      }),
      reply.calls({ id: 's1', name: 'complete_task', args: { report } }),
      reply.text('Found it.'),
    );
    const r = await runHost(['-p', 'where does it start?'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [, sub1, main2] = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    expect(system(sub1!)).toContain('You are **Codebase Investigator**');
    expect(sub1!.contents[0]!.parts.map((p) => p.text).join('')).toContain(
      '<objective>\nFind the entry.\n</objective>',
    );
    expect(declared(sub1!).sort()).toEqual([
      'complete_task',
      'filesystem__glob',
      'filesystem__list_directory',
      'filesystem__read_file',
      'filesystem__search_file_content',
    ]);
    expect(answer(main2!)).toContain(JSON.stringify(JSON.stringify(report, null, 2)).slice(1, -1));
  });
});

describe("a subagent's calls go through the session's policy and hooks", () => {
  const endpoint = scriptedEndpoints();

  it('a BeforeTool hook sees and can deny the sub-call; a write the headless policy does not allow is denied', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hook.log');
    ws.settings({
      ...ONLY('filesystem'),
      hooks: {
        BeforeTool: [
          { matcher: 'read_file', hooks: [{ type: 'command', command: hook(log, 'deny-json', 'no reading') }] },
        ],
      },
    });
    const notes = ws.file('notes.txt', 'secret\n');
    const dir = join(ws.home, '.gemini', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'editor.md'),
      '---\nname: editor\ndescription: Edits.\ntools: [read_file, write_file]\n---\nYou edit.\n',
    );
    const ep = await endpoint(
      reply.calls({ id: 'm1', name: 'invoke_agent', args: { agent_name: 'editor', prompt: 'edit' } }),
      reply.calls(
        { id: 's1', name: 'filesystem__read_file', args: { absolute_path: notes } },
        { id: 's2', name: 'filesystem__write_file', args: { file_path: join(ws.cwd, 'out.txt'), content: 'x' } },
      ),
      reply.calls({ id: 's3', name: 'complete_task', args: { result: 'could not' } }),
      reply.text('ok'),
    );
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [, sub1, sub2] = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    // Headless: a write that would need a confirmation is not offered, as to the main model.
    expect(declared(sub1!).sort()).toEqual(['complete_task', 'filesystem__read_file']);
    const responses = JSON.stringify(sub2!.contents.at(-1));
    expect(responses).toContain('no reading');
    expect(responses).not.toContain('secret');
    expect(responses).toContain(
      'Tool execution for \\"filesystem__write_file\\" requires user confirmation, which is not supported in non-interactive mode.',
    );
    expect(existsSync(join(ws.cwd, 'out.txt'))).toBe(false);
    expect(records(log).map((g) => g.payload.tool_name)).toEqual(['read_file']);
  });
});

describe("extensions' agents", () => {
  const endpoint = scriptedEndpoints();

  it("loads an enabled extension's agents/*.md, but not one that links outside the extension", async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const ext = join(ws.home, '.gemini', 'extensions', 'ext-agents');
    mkdirSync(join(ext, 'agents'), { recursive: true });
    writeFileSync(join(ext, 'gemini-extension.json'), JSON.stringify({ name: 'ext-agents', version: '1.0.0' }));
    writeFileSync(join(ext, 'agents', 'packer.md'), '---\nname: packer\ndescription: Packs boxes.\n---\nYou pack.\n');
    const outside = join(ws.home, 'elsewhere.md');
    writeFileSync(outside, '---\nname: leaker\ndescription: Leaks.\n---\nYou leak.\n');
    symlinkSync(outside, join(ext, 'agents', 'leaker.md'));
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [main1] = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    expect(system(main1!)).toContain('- packer -> Packs boxes.');
    expect(system(main1!)).not.toContain('leaker');
    expect(r.stderr).toContain(`${join(ext, 'agents', 'leaker.md')}: it leads outside its extension (to ${outside})`);
  });
});

describe('policy rules that name an agent', () => {
  const endpoint = scriptedEndpoints();

  it("a policy file rule denying codebase_investigator by name stops its run with the rule's message", async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    mkdirSync(join(ws.home, '.gemini', 'policies'), { recursive: true });
    writeFileSync(
      join(ws.home, '.gemini', 'policies', 'agents.toml'),
      '[[rule]]\ntoolName = "codebase_investigator"\ndecision = "deny"\npriority = 500\ndeny_message = "Deep codebase analysis is restricted for this session."\n',
    );
    const ep = await endpoint(
      reply.calls({ id: 'm1', name: 'invoke_agent', args: { agent_name: 'codebase_investigator', prompt: 'map it' } }),
      reply.text('ok'),
    );
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const requests = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    // No sub-conversation was started: the main model's second request follows at once.
    expect(requests).toHaveLength(2);
    expect(answer(requests[1]!)).toContain('Deep codebase analysis is restricted for this session.');
  });
});
