import { join, sep } from 'node:path';
import * as z from 'zod/mini';
import { McpServerSettingsSchema, ownRecord } from '../config/settings-schema.js';
import { EXTENSION_NAME, MANIFEST_FILE } from './paths.js';
import { ConfigFileError, readConfigFile } from '../config/config-file.js';
import { isWithin } from '../../protocol/path-within.js';

const nonEmpty = () => z.string().check(z.minLength(1));

/** `gemini-extension.json`, as far as this host reads it; unknown keys (themes, plan, …) pass through. */
export const ManifestSchema = z.looseObject({
  name: nonEmpty(),
  version: nonEmpty(),
  description: z.optional(z.string()),
  mcpServers: z.optional(ownRecord(McpServerSettingsSchema)),
  contextFileName: z.optional(z.union([z.string(), z.array(z.string())])),
  excludeTools: z.optional(z.array(z.string())),
  settings: z.optional(
    z.array(
      z.looseObject({
        name: z.string(),
        description: z._default(z.optional(z.string()), ''),
        envVar: z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')),
        sensitive: z.optional(z.boolean()),
      }),
    ),
  ),
  migratedTo: z.optional(z.string()),
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type ExtensionSetting = NonNullable<Manifest['settings']>[number];

export class ManifestError extends Error {}

/**
 * `${extensionPath}`, `${workspacePath}`, `${/}` and `${pathSeparator}` in every string, as Gemini CLI
 * substitutes them; any other `${…}` is left for the environment expansion that follows.
 */
export function hydrate<T>(value: T, vars: Record<string, string>): T {
  if (typeof value === 'string')
    return value.replace(/\$\{(.*?)\}/g, (whole, key: string) => (Object.hasOwn(vars, key) ? vars[key]! : whole)) as T;
  if (Array.isArray(value)) return value.map((v) => hydrate(v, vars)) as T;
  if (value && typeof value === 'object') {
    // fromEntries defines own data properties: a server named `__proto__` or `constructor` is a plain name
    // (as settings.json's servers are), never the object's prototype.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hydrate(v, vars)])) as T;
  }
  return value;
}

export function pathVariables(extensionPath: string, workspacePath: string): Record<string, string> {
  return { extensionPath, workspacePath, '/': sep, pathSeparator: sep };
}

/** Reads, substitutes and validates `<dir>/gemini-extension.json`; throws ManifestError with the reason. */
export function readManifest(dir: string, workspacePath: string): Manifest {
  const file = join(dir, MANIFEST_FILE);
  let raw: unknown;
  try {
    // A third party's file: a regular file under the size cap, never a FIFO or device (config-file.ts).
    const text = readConfigFile(file);
    if (text === undefined) throw new ManifestError(`Configuration file not found at ${file}`);
    raw = JSON.parse(text);
  } catch (err) {
    if (err instanceof ManifestError) throw err;
    throw new ManifestError(
      err instanceof ConfigFileError ? err.message : `${file} is not valid JSON: ${(err as Error).message}`,
    );
  }
  const parsed = ManifestSchema.safeParse(hydrate(raw, pathVariables(dir, workspacePath)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ManifestError(
      `Invalid ${file}: "${issue.path.map(String).join('.') || '(top level)'}": ${issue.message}`,
    );
  }
  if (!EXTENSION_NAME.test(parsed.data.name)) {
    throw new ManifestError(
      `Invalid extension name: "${parsed.data.name}". Only letters (a-z, A-Z), numbers (0-9), and dashes (-) are allowed.`,
    );
  }
  return parsed.data;
}

/** Context files of an extension: `contextFileName` (one or a list), else GEMINI.md; inside the folder only. */
export function contextFilePaths(dir: string, manifest: Manifest): string[] {
  const v = manifest.contextFileName;
  const names = v === undefined ? ['GEMINI.md'] : typeof v === 'string' ? [v] : v;
  return names.map((n) => {
    const p = join(dir, n);
    if (!isWithin(dir, p))
      throw new ManifestError(
        `Invalid context file path: "${n}". Context files must be within the extension directory.`,
      );
    return p;
  });
}
