import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../../protocol/terminal-screen.js';

/** What a pseudo-terminal's bytes looked like on screen: the text the model gets and the chat's card shows. */
describe('TerminalScreen', () => {
  const render = async (data: string, cols = 20, rows = 5) => {
    const s = new TerminalScreen(cols, rows);
    s.write(data);
    await s.settled();
    const out = { text: s.text(), rows: s.screenRows() };
    s.dispose();
    return out;
  };

  it('a carriage-return progress bar leaves its last state; colours are gone', async () => {
    const { text } = await render('10%\r50%\r\x1b[32m100%\x1b[0m\r\ndone\r\n');
    expect(text).toBe('100%\ndone');
  });

  it('a line longer than the terminal wraps on screen but reads as one line', async () => {
    const { text, rows } = await render(`${'x'.repeat(25)}\r\n`, 20, 5);
    expect(rows.slice(0, 2)).toEqual(['x'.repeat(20), 'x'.repeat(5)]);
    expect(text).toBe('x'.repeat(25));
  });

  it('cursor moves and erasing draw what a person saw', async () => {
    const { text } = await render('Name: wrong\x1b[5D\x1b[Kright\r\n');
    expect(text).toBe('Name: right');
  });

  it("a full-screen program's alternate screen is gone once it leaves; the screen rows show it while on", async () => {
    const on = await render('before\r\n\x1b[?1049h\x1b[HEDITOR ~\r\n~');
    expect(on.rows.slice(0, 2)).toEqual(['EDITOR ~', '~']);
    const off = await render('before\r\n\x1b[?1049hEDITOR\x1b[?1049lafter\r\n');
    expect(off.text).toBe('before\nafter');
  });

  it('keeps scrollback above the screen in the text', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i}`);
    const { text, rows } = await render(`${lines.join('\r\n')}\r\n`, 20, 5);
    expect(text).toBe(lines.join('\n'));
    expect(rows[0]).toBe('line 8');
  });
});
