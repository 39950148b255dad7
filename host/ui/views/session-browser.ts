import type { SessionInfo } from '../../sessions/store.js';
import { formatAge } from '../../sessions/session-list-text.js';
import type { KeyInfo } from './app.js';
import type { Palette } from '../text/palette.js';
import { safeText } from '../../safe-text.js';

export interface BrowserHost {
  palette: Palette;
  interceptors: ((ch: string | undefined, key: KeyInfo) => boolean)[];
  showDialog(body: string | undefined, footer?: string): void;
}

const VISIBLE = 12;

/** The rows of the browser: newest first, the selected one marked, a window around it. */
export function browserText(
  sessions: SessionInfo[],
  state: { selected: number; filter: string; searching: boolean; current?: string },
  p: Palette,
): { body: string; footer: string } {
  const start = Math.max(0, Math.min(state.selected - Math.floor(VISIBLE / 2), sessions.length - VISIBLE));
  const rows = sessions.slice(start, start + VISIBLE).map((s, i) => {
    const mark = start + i === state.selected ? p.accent('❯ ') : '  ';
    const here = s.id === state.current ? p.green(' (this session)') : '';
    const line = `${String(s.index).padStart(3)}. ${safeText(s.title)} ${p.gray(`· ${s.messages} messages · ${formatAge(s.updated)}${s.geminiCli ? ' · Gemini CLI' : ''} · ${shortId(s.id)}`)}${here}`;
    return mark + (start + i === state.selected ? p.bold(line) : line);
  });
  const head = p.bold(`Resume a session (${sessions.length}${state.filter ? ` matching "${state.filter}"` : ''})`);
  const body = [head, '', ...(rows.length ? rows : [p.gray('  No session matches.')])].join('\n');
  const footer = state.searching
    ? `${p.accent('/')}${state.filter}${p.gray('▏  enter: done  esc: clear')}`
    : p.gray('↑/↓ move · enter resume · / search · esc close');
  return { body, footer };
}

/** A modal list of recorded sessions: ↑/↓, Enter picks, `/` filters by title or id, Esc closes. */
export function browseSessions(
  host: BrowserHost,
  all: SessionInfo[],
  current?: string,
): Promise<SessionInfo | undefined> {
  const newestFirst = [...all].reverse();
  const state = { selected: 0, filter: '', searching: false, current };
  const visible = () =>
    newestFirst.filter((s) => !state.filter || `${s.title} ${s.id}`.toLowerCase().includes(state.filter.toLowerCase()));
  return new Promise((resolve) => {
    const draw = () => {
      const { body, footer } = browserText(visible(), state, host.palette);
      host.showDialog(body, footer);
    };
    const finish = (picked: SessionInfo | undefined): void => {
      const i = host.interceptors.indexOf(intercept);
      if (i >= 0) host.interceptors.splice(i, 1);
      host.showDialog(undefined);
      resolve(picked);
    };
    const intercept = (ch: string | undefined, key: KeyInfo): boolean => {
      const name = key.name ?? '';
      const list = visible();
      if (name === 'enter') return true; // blessed reports Enter twice; 'return' acts
      if (state.searching) {
        if (name === 'escape') Object.assign(state, { searching: false, filter: '' });
        else if (name === 'return') state.searching = false;
        else if (name === 'backspace') state.filter = state.filter.slice(0, -1);
        else if (ch && !key.ctrl && !key.meta && ch >= ' ') state.filter += ch;
        state.selected = 0;
      } else if (name === 'escape' || (key.ctrl && name === 'c') || ch === 'q') return finish(undefined), true;
      else if (name === 'return') return finish(list[state.selected]), true;
      else if (name === 'up' || ch === 'k') state.selected = Math.max(0, state.selected - 1);
      else if (name === 'down' || ch === 'j') state.selected = Math.min(list.length - 1, state.selected + 1);
      else if (ch === '/') state.searching = true;
      draw();
      return true;
    };
    host.interceptors.unshift(intercept);
    draw();
  });
}

/** A generated id (a UUID) shortened to its first 8 characters; an id the user chose (`--session-id`) whole. */
function shortId(id: string): string {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(id) ? id.slice(0, 8) : safeText(id);
}
