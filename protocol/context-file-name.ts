/**
 * Context file names (`context.fileName`, the memory server's `--context-file-name`) are plain file
 * names looked up in a folder — `GEMINI.md`, `AGENTS.md` — never paths: `../.ssh/id_rsa` or `/etc/passwd`
 * would leave that folder and hand any file to the model (and make `save_memory` write there). Both the
 * host and the memory server apply this rule, so neither relies on the other.
 */
export function isPlainFileName(name: string): boolean {
  return (
    name.length > 0 &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    !name.includes('\\') &&
    !name.includes('\0')
  );
}

/** Splits configured names into the usable plain names and the refused ones (for a warning). */
export function splitContextFileNames(names: readonly string[]): { names: string[]; refused: string[] } {
  const ok: string[] = [];
  const refused: string[] = [];
  for (const n of names) (isPlainFileName(n) ? ok : refused).push(n);
  return { names: ok, refused };
}

export function refusedContextFileNamesNotice(refused: readonly string[]): string {
  return (
    `Ignored context.fileName ${refused.map((n) => JSON.stringify(n)).join(', ')}: a context file name must be a ` +
    'plain file name (like GEMINI.md), not a path.'
  );
}
