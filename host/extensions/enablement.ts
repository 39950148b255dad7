import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import { ConfigFileError, readConfigFile } from '../config/config-file.js';
import { ENABLEMENT_FILE } from './paths.js';

/**
 * `extension-enablement.json` in Gemini CLI's own format: `{ "<name>": { "overrides": ["/abs/dir/*", "!/other/"] } }`.
 * A rule is a directory with a leading and trailing `/`; `!` disables, a trailing `*` covers subfolders.
 * The last rule that matches the current folder wins; an extension without a matching rule is enabled.
 */
export type EnablementConfig = Record<string, { overrides: string[] }>;

interface Rule {
  dir: string;
  disable: boolean;
  subdirs: boolean;
}

const slashed = (p: string): string => {
  let s = p.replace(/\\/g, '/');
  if (!s.startsWith('/')) s = `/${s}`;
  return s.endsWith('/') ? s : `${s}/`;
};

function parseRule(text: string): Rule {
  const disable = text.startsWith('!');
  let dir = disable ? text.slice(1) : text;
  const subdirs = dir.endsWith('*');
  if (subdirs) dir = dir.slice(0, -1);
  return { dir, disable, subdirs };
}

const ruleText = (r: Rule): string => `${r.disable ? '!' : ''}${r.dir}${r.subdirs ? '*' : ''}`;

function matches(rule: Rule, folder: string): boolean {
  return rule.subdirs ? folder.startsWith(rule.dir) : folder === rule.dir;
}

export class Enablement {
  private readonly file: string;
  /** The file as isEnabled last read it: asked once per extension at every start, read once. */
  private cached?: EnablementConfig;
  /** Why the file was refused (a FIFO, a device, huge): then no extension is enabled by it. */
  refused?: string;

  /** `only`: the `-e a,b` list for one run (`none` disables every extension); overrides the file. */
  constructor(
    extensionsDir: string,
    private readonly only?: string[],
  ) {
    this.file = join(extensionsDir, ENABLEMENT_FILE);
  }

  /**
   * The file's rules; none when it is missing or does not parse. A file the safe reader refuses (a FIFO,
   * a device, huge) throws its ConfigFileError, naming the file, so enable and disable stop there.
   */
  read(): EnablementConfig {
    const text = readConfigFile(this.file);
    if (text === undefined) return {};
    try {
      const raw = JSON.parse(text) as unknown;
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
      const out: EnablementConfig = {};
      for (const [name, v] of Object.entries(raw as Record<string, unknown>)) {
        const overrides = (v as { overrides?: unknown } | null)?.overrides;
        if (Array.isArray(overrides)) out[name] = { overrides: overrides.filter((o) => typeof o === 'string') };
      }
      return out;
    } catch {
      return {};
    }
  }

  isEnabled(name: string, folder: string): boolean {
    if (this.only?.length) {
      const wanted = this.only.map((n) => n.toLowerCase());
      if (wanted.length === 1 && wanted[0] === 'none') return false;
      return wanted.includes(name.toLowerCase());
    }
    this.cached ??= this.readOrRefuse();
    // Which extensions this folder disabled cannot be known: none runs (fail closed), and the loader says why.
    if (this.refused) return false;
    let enabled = true;
    const at = slashed(folder);
    for (const text of (Object.hasOwn(this.cached, name) ? this.cached[name]?.overrides : undefined) ?? []) {
      const rule = parseRule(text);
      if (matches(rule, at)) enabled = !rule.disable;
    }
    return enabled;
  }

  private readOrRefuse(): EnablementConfig {
    try {
      return this.read();
    } catch (err) {
      if (!(err instanceof ConfigFileError)) throw err;
      this.refused = err.message;
      return {};
    }
  }

  /** Enables (or disables) for `folder` and every folder below it; rules it supersedes are dropped. */
  set(name: string, folder: string, enabled: boolean): void {
    const config = this.read();
    const rule: Rule = { dir: slashed(folder), disable: !enabled, subdirs: true };
    const kept = (config[name]?.overrides ?? []).filter((text) => {
      const old = parseRule(text);
      if (old.dir === rule.dir) return false;
      // A rule for a folder below this one is covered by the new rule.
      return !old.dir.startsWith(rule.dir);
    });
    config[name] = { overrides: [...kept, ruleText(rule)] };
    this.write(config);
  }

  remove(name: string): void {
    const config = this.read();
    if (!(name in config)) return;
    delete config[name];
    this.write(config);
  }

  private write(config: EnablementConfig): void {
    this.cached = undefined;
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileAtomic(this.file, JSON.stringify(config, null, 2));
  }
}
