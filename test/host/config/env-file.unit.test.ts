import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findEnvFile, homeEnvFile, readEnvFile, withEnvFile } from '../../../host/config/env-file.js';

let base: string;
let home: string;
let project: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'env-file-')));
  home = join(base, 'home');
  project = join(home, 'code', 'app');
  mkdirSync(join(project, 'src', 'deep'), { recursive: true });
  mkdirSync(join(home, '.gemini'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const put = (path: string, text: string) => {
  writeFileSync(path, text);
  return path;
};

describe('findEnvFile: walking up from the working directory', () => {
  it('takes the nearest folder’s .gemini/.env before its .env, and marks it as the workspace’s', () => {
    put(join(project, '.env'), 'A=1');
    mkdirSync(join(project, '.gemini'));
    const gem = put(join(project, '.gemini', '.env'), 'A=2');
    put(join(home, '.env'), 'A=home');
    expect(findEnvFile(join(project, 'src', 'deep'), home)).toEqual({ path: gem, workspace: true });
  });

  it('stops at the nearest folder with one, even when a parent has .gemini/.env', () => {
    const near = put(join(project, 'src', '.env'), 'A=near');
    mkdirSync(join(project, '.gemini'));
    put(join(project, '.gemini', '.env'), 'A=far');
    expect(findEnvFile(join(project, 'src', 'deep'), home)).toEqual({ path: near, workspace: true });
  });

  it('marks a file found in the home folder itself as the user’s, not the workspace’s', () => {
    const mine = put(join(home, '.gemini', '.env'), 'A=home');
    expect(findEnvFile(project, home)).toEqual({ path: mine, workspace: false });
    expect(findEnvFile(project, `${home}/`)).toEqual({ path: mine, workspace: false });
  });
});

describe('homeEnvFile', () => {
  it('prefers ~/.gemini/.env over ~/.env, and is undefined with neither', () => {
    expect(homeEnvFile(home)).toBeUndefined();
    const plain = put(join(home, '.env'), 'A=1');
    expect(homeEnvFile(home)).toEqual({ path: plain, workspace: false });
    const gem = put(join(home, '.gemini', '.env'), 'A=2');
    expect(homeEnvFile(home)).toEqual({ path: gem, workspace: false });
  });
});

describe('readEnvFile and withEnvFile', () => {
  it('parses comments, quotes and export-less lines', () => {
    const f = put(join(base, '.env'), '# comment\nKEY=value\nQUOTED="a b # not a comment"\nEMPTY=\n');
    expect(readEnvFile(f)).toEqual({ KEY: 'value', QUOTED: 'a b # not a comment', EMPTY: '' });
  });

  it('reads a missing file as nothing, and refuses a folder in the file’s place with its name', () => {
    expect(readEnvFile(join(base, 'absent.env'))).toEqual({});
    const dir = join(base, 'dir.env');
    mkdirSync(dir);
    expect(() => readEnvFile(dir)).toThrow(dir);
  });

  it('never overrides a variable already set, and adds the others', () => {
    const f = put(join(base, '.env'), 'GEMINI_API_KEY=from-file\nNEW=1\nPATH=/evil');
    expect(withEnvFile({ GEMINI_API_KEY: 'mine', PATH: '/usr/bin' }, { path: f, workspace: true })).toEqual({
      GEMINI_API_KEY: 'mine',
      PATH: '/usr/bin',
      NEW: '1',
    });
    const env = { A: '1' };
    expect(withEnvFile(env, undefined)).toBe(env);
  });
});
