import { describe, expect, it } from 'vitest';
import { expandDeep, expandString } from '../../../host/config/expand.js';

const env = { HOME: '/home/u', TOKEN: 's3cret', EMPTY: '', A_1: 'x' };

describe('expandString', () => {
  it('expands $VAR and ${VAR}', () => {
    expect(expandString('$HOME/.cache', env)).toBe('/home/u/.cache');
    expect(expandString('Bearer ${TOKEN}', env)).toBe('Bearer s3cret');
    expect(expandString('${A_1}$A_1', env)).toBe('xx');
  });

  it('leaves an unset variable as its literal placeholder so a missing secret is visible', () => {
    expect(expandString('Bearer ${MISSING}', env)).toBe('Bearer ${MISSING}');
    expect(expandString('$MISSING/bin', env)).toBe('$MISSING/bin');
  });

  it('uses ${VAR:-default} when the variable is unset or empty, and the value otherwise', () => {
    expect(expandString('${MISSING:-fallback}', env)).toBe('fallback');
    expect(expandString('${EMPTY:-fallback}', env)).toBe('fallback');
    expect(expandString('${TOKEN:-fallback}', env)).toBe('s3cret');
    expect(expandString('${MISSING:-}', env)).toBe('');
  });

  it('expands an empty variable without a default to empty', () => {
    expect(expandString('[$EMPTY][${EMPTY}]', env)).toBe('[][]');
  });

  it('leaves text that is not a variable name alone', () => {
    expect(expandString('cost $5 and ${1X} and $ and ${}', env)).toBe('cost $5 and ${1X} and $ and ${}');
  });

  it('does not expand a value a second time (a variable holding $HOME stays literal)', () => {
    expect(expandString('$NESTED', { NESTED: '$HOME', HOME: '/h' })).toBe('$HOME');
    expect(expandString('${MISSING:-$HOME}', { HOME: '/h' })).toBe('$HOME');
  });
});

describe('expandDeep', () => {
  it('expands every string in objects and arrays, and leaves keys, numbers, booleans and null alone', () => {
    const value = {
      $HOME: { args: ['--dir', '$HOME'], port: 8080, on: true, none: null },
      env: { KEY: '${TOKEN}' },
    };
    expect(expandDeep(value, env)).toEqual({
      $HOME: { args: ['--dir', '/home/u'], port: 8080, on: true, none: null },
      env: { KEY: 's3cret' },
    });
    expect(value.env.KEY).toBe('${TOKEN}');
  });

  it('keeps a server named __proto__ as an own key, never as the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"command": "$HOME/evil"}}');
    const out = expandDeep(parsed, env) as Record<string, unknown>;
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ command: '/home/u/evil' });
  });
});
