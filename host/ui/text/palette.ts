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

export function createPalette(depth: ColorDepth): Palette {
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
  return {
    depth,
    bold: sgr('1', '22'),
    // blessed drops SGR 2 (faint), 3 (italic) and 9 (strike): faint is a dark gray where the terminal has
    // one, italic is drawn as underline (the man-page convention), strike-through stays plain.
    dim: depth === 256 ? sgr('38;5;242', '39') : sgr('2', '22'),
    italic: sgr('4', '24'),
    underline: sgr('4', '24'),
    strike: plain,
    red: c256(203, 31),
    green: c256(114, 32),
    yellow: c256(221, 33),
    blue: c256(75, 34),
    magenta: c256(176, 35),
    cyan: c256(80, 36),
    // 8-colour terminals have no gray: use "bright black"-free dim white instead.
    gray: depth === 256 ? sgr('38;5;245', '39') : sgr('2', '22'),
    accent: c256(111, 34),
    added: c256(114, 32),
    removed: c256(203, 31),
  };
}

/** Removes SGR sequences (what a plain-text consumer or a width computation needs). */
export function stripSgr(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}
