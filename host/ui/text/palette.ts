/**
 * ANSI styling for the terminal UI. Blessed parses SGR sequences in element content, so every view
 * produces plain strings with SGR codes; the palette picks codes the terminal can show.
 */

export type ColorDepth = 0 | 8 | 256;

export type Style = (text: string) => string;

export interface Palette {
  depth: ColorDepth;
  bold: Style;
  dim: Style;
  italic: Style;
  underline: Style;
  strike: Style;
  red: Style;
  green: Style;
  yellow: Style;
  blue: Style;
  magenta: Style;
  cyan: Style;
  gray: Style;
  /** Brand colour for headings and the prompt marker. */
  accent: Style;
  /** Background tint for added / removed diff lines (falls back to plain colour). */
  added: Style;
  removed: Style;
}

/** Colour depth from the environment and what the terminal reports (`tput colors`). */
export function colorDepth(env: NodeJS.ProcessEnv, terminalColors: number | undefined): ColorDepth {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if (env.TERM === 'dumb') return 0;
  const forced = env.FORCE_COLOR;
  if (forced === '0') return 0;
  if (forced === '3' || forced === '2') return 256;
  if (/-256(color)?$|truecolor|24bit/.test(env.TERM ?? '') || /truecolor|24bit/.test(env.COLORTERM ?? '')) {
    return (terminalColors ?? 256) >= 256 ? 256 : 8;
  }
  if ((terminalColors ?? 8) >= 256) return 256;
  return (terminalColors ?? 8) >= 8 ? 8 : 0;
}

const sgr =
  (open: string, close: string): Style =>
  (text) =>
    text === '' ? '' : `\x1b[${open}m${text}\x1b[${close}m`;
const plain: Style = (text) => text;

/** `/theme` names: colours for a dark or a light terminal background (NO_COLOR turns colour off). */
export type ThemeName = 'dark' | 'light';
export const THEMES: readonly ThemeName[] = ['dark', 'light'];

/** 256-colour codes per theme; the light one is darker so text stays readable on white. */
const LIGHT = { red: 160, green: 28, yellow: 130, blue: 25, magenta: 90, cyan: 30, gray: 242, dim: 246, accent: 25 };
const DARK = { red: 203, green: 114, yellow: 221, blue: 75, magenta: 176, cyan: 80, gray: 245, dim: 242, accent: 111 };

export function createPalette(depth: ColorDepth, theme: ThemeName = 'dark'): Palette {
  if (depth === 0) {
    return {
      depth,
      bold: plain,
      dim: plain,
      italic: plain,
      underline: plain,
      strike: plain,
      red: plain,
      green: plain,
      yellow: plain,
      blue: plain,
      magenta: plain,
      cyan: plain,
      gray: plain,
      accent: plain,
      added: plain,
      removed: plain,
    };
  }
  const c256 = (n: number, fallback: number): Style =>
    depth === 256 ? sgr(`38;5;${n}`, '39') : sgr(String(fallback), '39');
  const t = theme === 'light' ? LIGHT : DARK;
  return {
    depth,
    bold: sgr('1', '22'),
    // blessed drops SGR 2 (faint), 3 (italic) and 9 (strike): faint is a dark gray where the terminal has
    // one, italic is drawn as underline (the man-page convention), strike-through stays plain.
    dim: depth === 256 ? sgr(`38;5;${t.dim}`, '39') : sgr('2', '22'),
    italic: sgr('4', '24'),
    underline: sgr('4', '24'),
    strike: plain,
    red: c256(t.red, 31),
    green: c256(t.green, 32),
    yellow: c256(t.yellow, 33),
    blue: c256(t.blue, 34),
    magenta: c256(t.magenta, 35),
    cyan: c256(t.cyan, 36),
    // 8-colour terminals have no gray: use "bright black"-free dim white instead.
    gray: depth === 256 ? sgr(`38;5;${t.gray}`, '39') : sgr('2', '22'),
    accent: c256(t.accent, 34),
    added: c256(t.green, 32),
    removed: c256(t.red, 31),
  };
}

/** Removes SGR sequences (what a plain-text consumer or a width computation needs). */
export function stripSgr(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}
