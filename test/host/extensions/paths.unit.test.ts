import { describe, expect, it } from 'vitest';
import { EXTENSION_NAME, extensionsDir } from '../../../host/extensions/paths.js';

describe('EXTENSION_NAME', () => {
  it('letters, digits and dashes: a single folder name that cannot climb out', () => {
    for (const ok of ['conductor', 'my-ext-2', 'A']) expect(EXTENSION_NAME.test(ok), ok).toBe(true);
    for (const bad of ['', '..', '../x', 'a/b', 'a\\b', '.hidden', 'a b', 'a_b', 'ü', 'a\n'])
      expect(EXTENSION_NAME.test(bad), JSON.stringify(bad)).toBe(false);
  });
});

describe('extensionsDir', () => {
  it('~/.gemini/extensions, moved by GEMINI_CLI_HOME, or under an explicit home', () => {
    expect(extensionsDir({ GEMINI_CLI_HOME: '/alt' })).toBe('/alt/.gemini/extensions');
    expect(extensionsDir({ GEMINI_CLI_HOME: '/alt' }, '/explicit')).toBe('/explicit/.gemini/extensions');
    expect(extensionsDir({ GEMINI_CLI_HOME: '' }, '/h')).toBe('/h/.gemini/extensions');
  });
});
