import type { GroundingChunk, GroundingSupport } from '@google/genai';

/**
 * Inserts `[n]` markers (1-based chunk numbers, several joined) at each supported segment's end.
 * The API counts segment offsets in UTF-8 bytes, so the text is cut as bytes, not UTF-16 units.
 */
export function insertCitations(text: string, supports: GroundingSupport[] | undefined): string {
  const insertions = (supports ?? [])
    .filter((s) => s.segment && s.groundingChunkIndices?.length)
    .map((s) => ({
      at: s.segment!.endIndex ?? 0,
      marker: s.groundingChunkIndices!.map((i) => `[${i + 1}]`).join(''),
    }))
    // Stable by position: markers of one offset keep their support order.
    .sort((a, b) => a.at - b.at);
  if (insertions.length === 0) return text;
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  let from = 0;
  for (const { at, marker } of insertions) {
    const pos = Math.max(from, Math.min(at, bytes.length));
    pieces.push(bytes.subarray(from, pos), Buffer.from(marker, 'utf8'));
    from = pos;
  }
  pieces.push(bytes.subarray(from));
  return Buffer.concat(pieces).toString('utf8');
}

/** `\n\nSources:\n[1] <title> (<uri>)` lines, or '' without sources. */
export function formatSources(chunks: GroundingChunk[] | undefined, missingUri: string): string {
  if (!chunks?.length) return '';
  const lines = chunks.map((c, i) => `[${i + 1}] ${c.web?.title || 'Untitled'} (${c.web?.uri || missingUri})`);
  return `\n\nSources:\n${lines.join('\n')}`;
}
