import { describe, expect, it } from 'vitest';
import { unknownKeyWarnings } from '../../../host/config/unknown-settings.js';

describe('unknown settings keys', () => {
  it('our own keys (the sandbox settings) are known, a typo of one is warned with the closest key', () => {
    const ok = {
      tools: { sandbox: true, sandboxNetwork: ['registry.npmjs.org'], sandboxSecrets: [], sandboxAutoApprove: true },
    };
    expect(unknownKeyWarnings(ok, 'settings.json')).toEqual([]);
    const typo = unknownKeyWarnings({ tools: { sandboxNetwrk: [] } }, 'settings.json');
    expect(typo).toHaveLength(1);
    expect(typo[0]).toContain('sandboxNetwork');
  });

  it('a misspelt top-level key names the closest one', () => {
    expect(unknownKeyWarnings({ modle: {} }, 'settings.json')[0]).toContain('"model"');
  });

  it('inherited names (constructor, __proto__, toString) are unknown keys, not a crash', () => {
    const layer = JSON.parse('{"constructor": 1, "__proto__": {}, "toString": {"a": 1}}');
    const warnings = unknownKeyWarnings(layer, 'settings.json');
    expect(warnings).toHaveLength(3);
    for (const w of warnings) expect(w).toMatch(/unknown setting "(constructor|__proto__|toString)"/);
  });
});
