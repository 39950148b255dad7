import { describe, expect, it } from 'vitest';
import { parseForm } from '../../../../host/mcp/elicitation-form.js';
import { FormDialog } from '../../../../host/ui/views/elicitation-form-view.js';
import { createPalette, stripSgr } from '../../../../host/ui/text/palette.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 1, maximum: 150, default: 30 },
    ok: { type: 'boolean', title: 'Agree' },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'h1', title: 'Superman' },
        { const: 'h2', title: 'Batman' },
      ],
      default: 'h1',
    },
  },
  required: ['name', 'ok'],
};

function dialog() {
  const shown: (string | undefined)[] = [];
  const d = new FormDialog(
    { show: (body, footer) => shown.push(body === undefined ? undefined : stripSgr(`${body}\n${footer}`)) },
    createPalette(0),
  );
  const type = (text: string) => {
    for (const ch of text) d.handleKey(ch, { name: ch === ' ' ? 'space' : ch });
  };
  const key = (name: string, mods: { ctrl?: boolean; shift?: boolean } = {}) =>
    d.handleKey(undefined, { name, ...mods });
  return { d, shown, type, key, last: () => shown[shown.length - 1] };
}

describe('FormDialog', () => {
  it('shows every field with defaults, validates on submit, then accepts with the typed values', async () => {
    const { d, type, key, last } = dialog();
    const answer = d.fillForm({ server: 'srv', form: parseForm('Tell me', schema) }, new AbortController().signal);
    expect(last()).toContain('MCP server srv asks:');
    expect(last()).toContain('Name*');
    expect(last()).toContain('1) Superman  2) Batman');
    expect(last()).toMatch(/Age|age/);
    key('s', { ctrl: true }); // submit with nothing typed: required fields complain
    expect(last()).toContain('Name is required');
    type('A');
    key('return');
    expect(last()).toContain('Name must be at least 2 characters');
    type('da');
    key('down');
    type('not-an-email');
    key('s', { ctrl: true });
    expect(last()).toContain('must be an e-mail address');
    for (let i = 0; i < 12; i++) key('backspace');
    type('ada@x.org');
    key('down');
    key('down');
    key('space'); // boolean toggles to yes
    key('down');
    key('right'); // Superman → Batman
    key('return'); // last field: submit
    expect(await answer).toEqual({
      action: 'accept',
      content: { name: 'Ada', email: 'ada@x.org', age: 30, ok: true, hero: 'h2' },
    });
    expect(d.isOpen).toBe(false);
  });

  it("a field's description keeps its lines (a document to review), shows controls, and is not a repeat of the message", () => {
    const { d, key, last } = dialog();
    const spec = { type: 'string', title: 'Spec', description: 'Review:\n## Overview\nDark\u001b[31m theme' };
    const form = parseForm('Please answer 2 questions.', {
      type: 'object',
      properties: { spec, name: { type: 'string', title: 'Name', description: 'Please answer 2 questions.' } },
    });
    void d.fillForm({ server: 'memory', form }, new AbortController().signal);
    expect(last()).toContain('    Review:\n    ## Overview\n    Dark\\x1b[31m theme');
    key('down');
    expect(last()!.split('Please answer 2 questions.')).toHaveLength(2);
  });

  it('Ctrl-D declines, Esc cancels, an aborted signal cancels, and requests queue one at a time', async () => {
    const { d, key, last } = dialog();
    const form = parseForm('Q', schema);
    const first = d.fillForm({ server: 'a', form }, new AbortController().signal);
    const second = d.fillForm({ server: 'b', form }, new AbortController().signal);
    const ac = new AbortController();
    const third = d.approveSampling({ server: 'c', summary: 'user: hi', model: 'gemini-2.5-flash' }, ac.signal);
    key('d', { ctrl: true });
    expect(await first).toEqual({ action: 'decline' });
    expect(last()).toContain('MCP server b asks:');
    key('escape');
    expect(await second).toEqual({ action: 'cancel' });
    expect(last()).toContain('MCP server c asks to use the model');
    ac.abort();
    expect(await third).toBe('deny');
    expect(last()).toBeUndefined();
  });

  it('sampling approval: y once, a always; URL mode: y accepts', async () => {
    const { d, type } = dialog();
    const once = d.approveSampling({ server: 's', summary: 'x', model: 'm' }, new AbortController().signal);
    type('y');
    expect(await once).toBe('once');
    const always = d.approveSampling({ server: 's', summary: 'x', model: 'm' }, new AbortController().signal);
    type('a');
    expect(await always).toBe('always');
    const url = d.fillForm(
      { server: 's', form: { message: 'Log in', fields: [] }, url: 'https://example.com/login' },
      new AbortController().signal,
    );
    type('y');
    expect(await url).toEqual({ action: 'accept', content: {} });
  });
});
