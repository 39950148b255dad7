/**
 * Modules only some tools need, loaded on first use: a stdio server is spawned per session, so
 * startup pays only for what every call needs.
 */
export type FastGlob = typeof import('fast-glob');

export async function loadFastGlob(): Promise<FastGlob> {
  const mod = (await import('fast-glob')) as unknown as { default?: FastGlob } & FastGlob;
  return mod.default ?? mod;
}
