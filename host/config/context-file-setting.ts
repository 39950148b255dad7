import { splitContextFileNames } from '../../protocol/context-file-name.js';
import type { Settings } from './settings-schema.js';

/**
 * `context.fileName`: one name or a list (Gemini CLI accepts both); empty means the default GEMINI.md.
 * Only plain file names are used; a path (`../.ssh/id_rsa`) is refused — see refusedContextFileNames.
 */
export function contextFileNames(settings: Settings): string[] {
  return splitContextFileNames(configuredContextFileNames(settings)).names;
}

/** The configured context file names that are paths rather than plain names, for the start-up notice. */
export function refusedContextFileNames(settings: Settings): string[] {
  return splitContextFileNames(configuredContextFileNames(settings)).refused;
}

function configuredContextFileNames(settings: Settings): string[] {
  const v = settings.context?.fileName;
  const names = typeof v === 'string' ? [v] : (v ?? []);
  return names.map((n) => n.trim()).filter(Boolean);
}
