import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseTheme, GEMINI_THEMES, themeOf } from '../../../../host/ui/text/theme-names.js';
import { geminiCli } from '../../../helpers/gemini-cli.js';

/** Gemini CLI 0.61's built-in themes as its bundle defines them: `new Theme("Name", "dark" | "light", …)`. */
function bundledThemes(entry: string): Record<string, string> {
  const dir = dirname(entry);
  const found: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/new Theme\(\s*"([^"]+)",\s*"(dark|light)"/g))
      found[m[1]!] = m[2]!;
  }
  return found;
}

describe("Gemini CLI's theme names", () => {
  it('are exactly the built-in themes of Gemini CLI 0.61, each with its background', () => {
    const { entry, why } = geminiCli();
    if (!entry && !process.env.CI) return console.warn(`theme-names: skipped, ${why}`);
    expect(entry, why).toBeDefined();
    const theirs = bundledThemes(entry!);
    // NoColor is what Gemini CLI draws under NO_COLOR, not a theme it lets ui.theme name.
    delete theirs.NoColor;
    expect(GEMINI_THEMES).toEqual(theirs);
  });

  it('map to the nearer palette; custom themes go by their background colour', () => {
    expect(themeOf('Xcode')).toBe('light');
    expect(themeOf('Dracula')).toBe('dark');
    expect(themeOf('Paper', { Paper: { background: { primary: '#fafafa' } } })).toBe('light');
    expect(themeOf('Ink', { Ink: { Background: '#111' } })).toBe('dark');
    expect(chooseTheme('github light')).toEqual({ palette: 'light', setting: 'GitHub Light' });
    expect(chooseTheme('"Solarized  Light"')).toEqual({ palette: 'light', setting: 'Solarized Light' });
    expect(chooseTheme('light')).toEqual({ palette: 'light', setting: 'Default Light' });
    expect(chooseTheme('Paper', { Paper: { Background: '#ffffff' } })).toEqual({ palette: 'light', setting: 'Paper' });
    expect(chooseTheme('__proto__')).toBeUndefined();
    expect(chooseTheme('mauve')).toBeUndefined();
  });
});
