import { DEFAULT_TRUNCATE_THRESHOLD, truncateWithFile } from '../../protocol/truncate.js';

/** The largest per-tool threshold a server may ask for through `_meta[META.maxResultSizeChars]`. */
export const MAX_RESULT_SIZE_CAP = 5_000_000;

/**
 * The threshold that applies to one tool: `tools.truncateToolOutputThreshold` (≤ 0 disables), raised
 * by the tool's declared maximum up to the host cap.
 */
export function effectiveThreshold(settingsThreshold: number | undefined, toolMax: number | undefined): number {
  const base = settingsThreshold ?? DEFAULT_TRUNCATE_THRESHOLD;
  if (base <= 0) return 0;
  if (typeof toolMax === 'number' && Number.isFinite(toolMax) && toolMax > base) {
    return Math.min(Math.floor(toolMax), MAX_RESULT_SIZE_CAP);
  }
  return base;
}

/** Cuts the model-facing text, saving the full text under `<projectTempDir>/tool-outputs/`. */
export async function truncateToolOutput(
  text: string,
  opts: { threshold: number; projectTempDir: string; exposedName: string; callId: string },
): Promise<{ text: string; file?: string }> {
  return truncateWithFile(text, {
    threshold: opts.threshold,
    dir: opts.projectTempDir,
    label: `${opts.exposedName}_${opts.callId}`,
  });
}
