import type { Content, Part } from '@google/genai';

function partMarkdown(p: Part): string | undefined {
  if (p.thought) return undefined;
  if (typeof p.text === 'string') return p.text;
  if (p.functionCall)
    return `🔧 **${p.functionCall.name}**\n\n\`\`\`json\n${JSON.stringify(p.functionCall.args ?? {}, null, 2)}\n\`\`\``;
  if (p.functionResponse) {
    const r = p.functionResponse.response as { output?: unknown; error?: unknown } | undefined;
    const body =
      typeof r?.output === 'string'
        ? r.output
        : typeof r?.error === 'string'
          ? `Error: ${r.error}`
          : JSON.stringify(r ?? {}, null, 2);
    return `↳ **${p.functionResponse.name}** result\n\n\`\`\`\n${body}\n\`\`\``;
  }
  if (p.inlineData) return `_[${p.inlineData.mimeType ?? 'binary'} data]_`;
  return undefined;
}

/** The conversation as Markdown: one section per turn, tool calls and results as code blocks. */
export function historyToMarkdown(history: Content[], title = 'Gemini MCP conversation'): string {
  const out = [`# ${title}`, '', `_Exported ${new Date().toISOString()}_`, ''];
  for (const c of history) {
    const body = (c.parts ?? []).map(partMarkdown).filter((s): s is string => !!s?.trim());
    if (!body.length) continue;
    const who =
      c.role === 'model' ? '## 🤖 Model' : body.every((b) => b.startsWith('↳')) ? '## ↳ Tool results' : '## 🧑 User';
    out.push(who, '', body.join('\n\n'), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** `/chat share FILE`: Markdown for `.md`, the raw history for `.json`. */
export function shareText(file: string, history: Content[]): string {
  if (/\.json$/i.test(file)) return `${JSON.stringify(history, null, 2)}\n`;
  if (/\.md$/i.test(file)) return historyToMarkdown(history);
  throw new Error('The file name must end in .md or .json.');
}
