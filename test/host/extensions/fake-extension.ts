import type { LoadedExtension } from '../../../host/extensions/loader.js';

/** A loaded extension as the loader would hand it over, without files: enabled, contributing nothing. */
export const fakeExtension = (
  name: string,
  over: Partial<LoadedExtension> = {},
  version = '1.0.0',
  base = '/exts',
): LoadedExtension =>
  ({
    name,
    version,
    path: `${base}/${name}`,
    installDir: `${base}/${name}`,
    manifest: { name, version },
    enabled: true,
    contextFiles: [],
    mcpServers: {},
    excludeTools: [],
    settingsEnv: {},
    ...over,
  }) as LoadedExtension;
