import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, TmuxUi, startChat } from './tmux.js';

type Part = { functionResponse?: { name: string; response: Record<string, unknown> } };
type Body = { contents: { parts: Part[] }[]; tools?: { functionDeclarations?: { name: string }[] }[] };

const todos = (...statuses: string[]) =>
  ['Read the parser', 'Fix the bug', 'Add a test'].map((description, i) => ({ description, status: statuses[i] }));

describeTmux('write_todos and ask_user in the chat', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('memory'));
    gemini = await startScriptedGemini([
      reply.calls({ id: 'w1', name: 'write_todos', args: { todos: todos('completed', 'in_progress', 'pending') } }),
      reply.calls({
        id: 'a1',
        name: 'ask_user',
        args: {
          questions: [
            {
              question: 'Which database?',
              header: 'Database',
              type: 'choice',
              options: [
                { label: 'Postgres', description: 'Relational' },
                { label: 'SQLite', description: 'One file' },
              ],
            },
            { question: 'What should the service be called?', header: 'Name', type: 'text' },
          ],
        },
      }),
      reply.calls({ id: 'w2', name: 'write_todos', args: { todos: todos('completed', 'completed', 'in_progress') } }),
      reply.text('Working on the test now.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 120, height: 40 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('shows the task list as a panel updated in place, and the user answers ask_user in our form', async () => {
    ui.submit('fix the parser');
    // The question arrives as a form while the task list stands above the input.
    let screen = await ui.waitFor((s) => s.includes('SQLite — One file') && s.includes('Todo 1/3'));
    expect(screen).toContain('» Fix the bug');
    expect(screen).toContain('○ Add a test');
    expect(screen).toContain('✓ Read the parser');
    expect(screen).toContain('todo 1/3');
    expect(screen).toContain('SQLite — One file');
    // Pick the second option, skip "Other", type the name; Enter on the last field submits. Each key waits
    // for its effect: keys sent in one burst would read as a paste.
    // The focused field's value carries the cursor mark.
    ui.keys('Right');
    await ui.waitFor('Postgres — Relational▏');
    ui.keys('Right');
    await ui.waitFor('SQLite — One file▏');
    ui.keys('Enter');
    await ui.waitFor('› Database: other');
    ui.keys('Enter');
    await ui.waitFor('› Name');
    ui.type('billing');
    await ui.waitFor('billing▏');
    ui.keys('Enter');
    screen = await ui.waitFor((s) => s.includes('Working on the test now.') && s.includes('Todo 2/3'));
    expect(screen).toContain('» Add a test');
    expect(screen).toContain('todo 2/3');
    // The panel is redrawn, not repeated: one title on screen.
    expect(screen.match(/Todo \d\/3/g)).toHaveLength(1);
    ui.submit('/stats');
    await ui.waitFor('todos           2/3 done (1 in progress)');

    const requests = gemini.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    const declared = requests[0]!.tools?.flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name) ?? [];
    expect(declared).toEqual(expect.arrayContaining(['write_todos', 'memory__ask_user']));
    const answer = requests[2]!.contents.at(-1)!.parts.find((p) => p.functionResponse)!.functionResponse!;
    expect(JSON.stringify(answer.response)).toContain(
      JSON.stringify(JSON.stringify({ answers: { '0': 'SQLite', '1': 'billing' } })).slice(1, -1),
    );
  });

  it('a resumed session shows the list as the model last left it', async () => {
    ui.kill();
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host), '--resume', 'latest'],
      width: 120,
      height: 40,
    });
    const screen = await ui.waitFor((s) => s.includes('Resumed session') && s.includes('Todo 2/3'));
    expect(screen).toContain('» Add a test');
    expect(screen).toContain('todo 2/3');
    // /clear starts a conversation without a list: the panel and the footer's count go.
    ui.submit('/clear');
    await ui.waitFor((s) => !s.includes('Todo 2/3') && !s.includes('todo 2/3') && s.includes('>'));
  });
});
