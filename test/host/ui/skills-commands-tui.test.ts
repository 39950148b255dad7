import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

const skill = (dir: string, name: string, description: string) => {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(
    join(dir, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n---\n\nBody of ${name}.\n`,
  );
};

/** What the model was offered in the newest request: activate_skill's enum of skill names. */
const offeredSkills = (gemini: ScriptedGemini): string[] => {
  const body = JSON.stringify(gemini.requestsOf('streamGenerateContent').at(-1)!.body);
  const m = /"enum":\[([^\]]*)\],"description":"The name of the skill to activate\./.exec(body);
  return m ? (JSON.parse(`[${m[1]}]`) as string[]) : [];
};

describeTmux('/skills enable, disable and reload in the chat', () => {
  const ws = workspace();
  const userSkills = join(ws.home, '.gemini', 'skills');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY());
    skill(userSkills, 'greeter', 'Greets people');
    skill(userSkills, 'reviewer', 'Reviews code');
    gemini = await startScriptedGemini([reply.text('one'), reply.text('two'), reply.text('three')]);
    ui = await startChat({ ws, url: gemini.url, width: 120, height: 30 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('disable writes skills.disabled as Gemini CLI does and takes the skill from the next request', async () => {
    ui.submit('/skills disable reviewer --scope user');
    await ui.waitFor('Skill "reviewer" disabled by adding it to the disabled list in user');
    const settings = JSON.parse(readFileSync(join(ws.home, '.gemini', 'settings.json'), 'utf8'));
    expect(settings.skills.disabled).toEqual(['reviewer']);
    ui.submit('hello');
    await ui.waitFor('one');
    expect(offeredSkills(gemini)).toEqual(['greeter']);
  });

  it('enable brings it back; reload picks up a skill written meanwhile', async () => {
    ui.submit('/skills enable reviewer');
    await ui.waitFor('Skill "reviewer" enabled by removing it from the disabled list in user');
    skill(userSkills, 'writer', 'Writes docs');
    ui.submit('/skills reload');
    await ui.waitFor('Skills reloaded: 3 available to the model.');
    ui.submit('again');
    await ui.waitFor('two');
    expect(offeredSkills(gemini).sort()).toEqual(['greeter', 'reviewer', 'writer']);
  });
});

describeTmux("activate_skill's card in the chat", () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY());
    skill(join(ws.home, '.gemini', 'skills'), 'greeter', 'Greets people');
    gemini = await startScriptedGemini([
      reply.calls({ id: 'k1', name: 'activate_skill', args: { name: 'greeter' } }),
      reply.text('Skill in use.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 120, height: 30 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('says the skill was activated and lists its resources, as Gemini CLI does; the model still gets the body', async () => {
    ui.submit('greet me');
    await ui.waitFor('Skill in use.');
    const screen = ui.capture();
    expect(screen).toContain('Skill greeter activated');
    expect(screen).toContain('SKILL.md');
    expect(screen).not.toContain('<activated_skill');
    expect(screen).not.toContain('Body of greeter');
    const sent = JSON.stringify(gemini.requestsOf('streamGenerateContent').at(-1)!.body);
    expect(sent).toContain('<activated_skill name=\\"greeter\\">');
    expect(sent).toContain('Body of greeter.');
  });
});
