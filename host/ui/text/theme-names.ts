import type { ThemeName } from './palette.js';

/**
 * `ui.theme` is shared with Gemini CLI, which refuses a name it does not know ("Theme … not found") and
 * forces its picker. So this host reads Gemini CLI 0.61's names, drawing each with the nearest of its own
 * two palettes, and writes only names Gemini CLI accepts.
 */

/** Gemini CLI 0.61's built-in themes (exact, case-sensitive names) and whether each is for a light or dark background. */
export const GEMINI_THEMES: Readonly<Record<string, ThemeName>> = {
  Default: 'dark',
  'Default Light': 'light',
  ANSI: 'dark',
  'ANSI Light': 'light',
  Ayu: 'dark',
  'Ayu Light': 'light',
  'Atom One': 'dark',
  Dracula: 'dark',
  GitHub: 'dark',
  'GitHub Light': 'light',
  'GitHub Dark Colorblind': 'dark',
  'GitHub Light Colorblind': 'light',
  'Google Code': 'light',
  Holiday: 'dark',
  'Shades Of Purple': 'dark',
  'Solarized Dark': 'dark',
  'Solarized Light': 'light',
  Xcode: 'light',
  'Tokyo Night': 'dark',
};

/** What `/theme dark|light` writes: Gemini CLI's default theme for that background. */
const WRITTEN: Record<ThemeName, string> = { dark: 'Default', light: 'Default Light' };

/** A choice of theme: the palette drawn here and the name kept in `ui.theme`. */
export interface ThemeChoice {
  palette: ThemeName;
  setting: string;
}

/** `ui.customThemes`, as far as the background colour goes (Gemini CLI reads either spelling). */
type CustomThemes = Record<string, { background?: { primary?: unknown }; Background?: unknown } | undefined>;

function customThemes(value: unknown): CustomThemes {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as CustomThemes) : {};
}

/** Light or dark from a custom theme's `#rgb` / `#rrggbb` background; undefined when it has none. */
function backgroundOf(theme: CustomThemes[string]): ThemeName | undefined {
  const raw = theme?.background?.primary ?? theme?.Background;
  const m = typeof raw === 'string' ? /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(raw.trim()) : null;
  if (!m?.[1]) return undefined;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! >= 128 ? 'light' : 'dark';
}

/**
 * The palette for a `ui.theme` value: a Gemini CLI theme by its background, a custom theme by its
 * background colour, the bare `dark` / `light` this host once wrote, and otherwise (a theme file, an
 * extension's theme) light when its name says so.
 */
export function themeOf(name: unknown, custom?: unknown): ThemeName | undefined {
  if (typeof name !== 'string' || !name.trim()) return undefined;
  const builtIn = Object.hasOwn(GEMINI_THEMES, name) ? GEMINI_THEMES[name] : undefined;
  if (builtIn) return builtIn;
  const themes = customThemes(custom);
  const fromColour = Object.hasOwn(themes, name) ? backgroundOf(themes[name]) : undefined;
  return fromColour ?? (/light/i.test(name) ? 'light' : 'dark');
}

/**
 * What `/theme NAME` means: one of ours (`dark`, `light`), a Gemini CLI theme or a `ui.customThemes` key,
 * spelled in any case. Undefined for anything else, so nothing Gemini CLI would refuse is written.
 */
export function chooseTheme(input: string, custom?: unknown): ThemeChoice | undefined {
  // `/theme "GitHub Light"` as a shell user would type it.
  const typed = input.trim().replace(/^(["'])(.*)\1$/, '$2');
  const wanted = typed.replace(/\s+/g, ' ').toLowerCase();
  if (wanted === 'dark' || wanted === 'light') return { palette: wanted, setting: WRITTEN[wanted] };
  const themes = customThemes(custom);
  const names = [...Object.keys(GEMINI_THEMES), ...Object.keys(themes)];
  const setting = names.find((n) => n === typed) ?? names.find((n) => n.toLowerCase() === wanted);
  return setting === undefined ? undefined : { palette: themeOf(setting, themes) ?? 'dark', setting };
}
