/** Applies the line-ending style of the existing file: CRLF stays CRLF. */
export function withLineEndings(content: string, existing: string | null): string {
  if (existing === null || !existing.includes('\r\n')) return content;
  return content.replace(/\r?\n/g, '\r\n');
}
