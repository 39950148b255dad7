import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsError } from '../../../host/config/errors.js';
import {
  type TrustLevel,
  decideTrust,
  readTrustRules,
  ruleFor,
  trustedFoldersPath,
  untrustedNotice,
} from '../../../host/config/trust.js';

let base: string;
let rulesFile: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'trust-')));
  rulesFile = join(base, 'trustedFolders.json');
  for (const d of ['work/app/src', 'work/app-evil', 'work/other']) mkdirSync(join(base, d), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const at = (p: string) => join(base, p);
const rules = (r: Record<string, TrustLevel>) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [at(k), v])) as Record<string, TrustLevel>;

describe('ruleFor: the deepest covering rule decides, distrust wins a tie', () => {
  it('TRUST_FOLDER covers the folder and below, not its parent or a sibling with the same prefix', () => {
    const r = rules({ 'work/app': 'TRUST_FOLDER' });
    expect(ruleFor(r, at('work/app'))).toEqual({ path: at('work/app'), level: 'TRUST_FOLDER' });
    expect(ruleFor(r, at('work/app/src'))?.level).toBe('TRUST_FOLDER');
    expect(ruleFor(r, at('work'))).toBeUndefined();
    expect(ruleFor(r, at('work/app-evil'))).toBeUndefined();
  });

  it('TRUST_PARENT covers the parent of the saved folder and its siblings', () => {
    const r = rules({ 'work/app': 'TRUST_PARENT' });
    expect(ruleFor(r, at('work/other'))).toEqual({ path: at('work/app'), level: 'TRUST_PARENT' });
    expect(ruleFor(r, at('work'))?.level).toBe('TRUST_PARENT');
    expect(ruleFor(r, base)).toBeUndefined();
  });

  it('a deeper DO_NOT_TRUST beats a trusting parent, and a deeper trust beats a distrusted parent', () => {
    const r = rules({ work: 'TRUST_FOLDER', 'work/app': 'DO_NOT_TRUST', 'work/app/src': 'TRUST_FOLDER' });
    expect(ruleFor(r, at('work/other'))?.level).toBe('TRUST_FOLDER');
    expect(ruleFor(r, at('work/app'))?.level).toBe('DO_NOT_TRUST');
    expect(ruleFor(r, at('work/app/src'))?.level).toBe('TRUST_FOLDER');
  });

  it('at equal depth distrust wins, whichever order or key length (TRUST_PARENT from a long-named sibling)', () => {
    const a = rules({ 'work/a-very-long-sibling-name': 'TRUST_PARENT', work: 'DO_NOT_TRUST' });
    const b = rules({ work: 'DO_NOT_TRUST', 'work/a-very-long-sibling-name': 'TRUST_PARENT' });
    expect(ruleFor(a, at('work'))).toEqual({ path: at('work'), level: 'DO_NOT_TRUST' });
    expect(ruleFor(b, at('work'))).toEqual({ path: at('work'), level: 'DO_NOT_TRUST' });
  });

  it('answers for a folder reached through a link as for its real path', () => {
    symlinkSync(at('work/app'), at('link'));
    expect(ruleFor(rules({ 'work/app': 'DO_NOT_TRUST' }), at('link'))?.level).toBe('DO_NOT_TRUST');
    expect(ruleFor(rules({ 'work/app': 'TRUST_FOLDER' }), at('link/../work/other'))).toBeUndefined();
  });
});

describe('readTrustRules', () => {
  it('reads JSON with comments, resolving each folder', () => {
    writeFileSync(rulesFile, `{\n // mine\n "${at('work')}/./app/": "TRUST_FOLDER"\n}`);
    expect(readTrustRules(rulesFile)).toEqual({ [at('work/app')]: 'TRUST_FOLDER' });
  });

  it('reads a missing file as no rules', () => {
    expect(readTrustRules(join(base, 'absent.json'))).toEqual({});
  });

  it('refuses a level it does not know, naming the folder, the file and the levels', () => {
    writeFileSync(rulesFile, JSON.stringify({ '/x': 'TRUST_EVERYTHING' }));
    expect(() => readTrustRules(rulesFile)).toThrow(SettingsError);
    expect(() => readTrustRules(rulesFile)).toThrow(
      `Invalid trust level "TRUST_EVERYTHING" for "/x" in ${rulesFile}: use one of TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST`,
    );
  });

  it('refuses a file whose top level is not an object', () => {
    writeFileSync(rulesFile, '["/x"]');
    expect(() => readTrustRules(rulesFile)).toThrow(/top level must be a JSON object/);
  });
});

describe('decideTrust', () => {
  const env = () => ({ GEMINI_CLI_TRUSTED_FOLDERS_PATH: rulesFile });
  const decide = (extra: Partial<Parameters<typeof decideTrust>[0]> = {}) =>
    decideTrust({ cwd: at('work/app'), env: env(), enabled: true, hasWorkspaceConfig: true, ...extra });

  it('uses GEMINI_CLI_TRUSTED_FOLDERS_PATH, else ~/.gemini/trustedFolders.json', () => {
    expect(trustedFoldersPath(env())).toBe(rulesFile);
    expect(trustedFoldersPath({}, '/home/u')).toBe('/home/u/.gemini/trustedFolders.json');
  });

  it('leaves a folder with workspace configuration and no rule undecided, and trusts one with nothing to trust', () => {
    expect(decide()).toEqual({ trusted: false, source: 'undecided' });
    expect(decide({ hasWorkspaceConfig: false })).toEqual({ trusted: true, source: 'no-workspace-config' });
  });

  it('follows a saved rule', () => {
    writeFileSync(rulesFile, JSON.stringify({ [at('work/app')]: 'DO_NOT_TRUST' }));
    expect(decide()).toEqual({
      trusted: false,
      source: 'file',
      rule: { path: at('work/app'), level: 'DO_NOT_TRUST' },
    });
  });

  it('orders the overrides: --skip-trust, then the environment variable, then folder trust switched off', () => {
    writeFileSync(rulesFile, JSON.stringify({ [at('work/app')]: 'DO_NOT_TRUST' }));
    const no = { ...env(), GEMINI_CLI_TRUST_WORKSPACE: 'false' };
    expect(decide({ skipTrust: true, env: no })).toEqual({ trusted: true, source: 'flag' });
    expect(decide({ env: { ...env(), GEMINI_CLI_TRUST_WORKSPACE: 'true' } })).toEqual({ trusted: true, source: 'env' });
    expect(decide({ env: no, enabled: false })).toEqual({ trusted: false, source: 'env' });
    expect(decide({ enabled: false })).toEqual({ trusted: true, source: 'disabled' });
    expect(decide({ env: { ...env(), GEMINI_CLI_TRUST_WORKSPACE: 'yes' } }).source).toBe('file');
  });

  it('fails loudly on a malformed rules file rather than deciding', () => {
    writeFileSync(rulesFile, '{ "x": ');
    expect(() => decide()).toThrow(SettingsError);
  });
});

describe('untrustedNotice', () => {
  it('says why, what was skipped and how to trust the folder', () => {
    const notice = untrustedNotice({ trusted: false, source: 'undecided' }, ['mcpServers (evil)', 'tools.allowed']);
    expect(notice).toBe(
      'This folder is not trusted (you have not trusted it yet), so its workspace configuration was not applied. ' +
        'Skipped: mcpServers (evil); tools.allowed. ' +
        'To trust it: answer the prompt in the chat or run "gemini-mcp trust" here; ' +
        'for one run, pass --skip-trust or set GEMINI_CLI_TRUST_WORKSPACE=true.',
    );
    const file = untrustedNotice({ trusted: false, source: 'file', rule: { path: '/w', level: 'DO_NOT_TRUST' } }, [
      'x',
    ]);
    expect(file).toContain(`(your trusted-folders file says "don't trust" (rule /w))`);
    expect(untrustedNotice({ trusted: false, source: 'env' }, ['x'])).toContain('(GEMINI_CLI_TRUST_WORKSPACE=false)');
  });

  it('says nothing for a trusted folder or when nothing was skipped', () => {
    expect(untrustedNotice({ trusted: true, source: 'file' }, ['x'])).toBeUndefined();
    expect(untrustedNotice({ trusted: false, source: 'undecided' }, [])).toBeUndefined();
  });
});
