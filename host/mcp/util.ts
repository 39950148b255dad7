/** Small helpers of the client manager. */

export function describeConnectError(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return `command not found (${msg})`;
  return msg;
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}

/** stderr of a dying process can arrive just after the close event; give it a moment. */
export function settleSoon(): Promise<void> {
  return new Promise((r) => setTimeout(r, 20));
}

/** The text of a `resources/read` answer: its text parts joined, blobs left out. */
export function resourceText(res: { contents: ({ text: string } | { blob: string })[] }): string {
  return res.contents.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('\n');
}
