import * as z from 'zod';
import { defineTool, type ToolDefinition } from '../../common/tool.js';
import { textResult, ToolError } from '../../common/result.js';
import { formatSources, insertCitations } from '../citations.js';
import { responseText, type WebModel } from '../model.js';

export const googleWebSearchSchema = z.object({
  query: z.string().describe('The search query.'),
});

export const googleWebSearchAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

export function createGoogleWebSearchTool(model: WebModel): ToolDefinition {
  return defineTool({
    name: 'google_web_search',
    title: 'GoogleSearch',
    description:
      'Searches the web with Google Search (through a Gemini model with search grounding). Use it to find current ' +
      'information or facts you do not know. Returns a summary of the results with [n] citations and a list of sources.',
    inputSchema: googleWebSearchSchema,
    annotations: googleWebSearchAnnotations,
    handler: async ({ query }, ctx) => {
      if (!query.trim()) throw new ToolError("The 'query' parameter cannot be empty.", 'invalid_tool_params');
      const fail = (message: string) =>
        new ToolError(
          `Error during web search for query "${query}": ${message}`,
          'web_search_failed',
          'Error performing web search.',
        );
      let response;
      try {
        response = await model.generate(query, [{ googleSearch: {} }], ctx.signal);
      } catch (err) {
        throw fail((err as Error).message);
      }
      const answer = responseText(response);
      if (!answer.trim()) {
        return textResult(`No search results or information found for query: "${query}"`, 'No information found.');
      }
      const grounding = response.candidates?.[0]?.groundingMetadata;
      const chunks = grounding?.groundingChunks;
      const cited = chunks?.length ? insertCitations(answer, grounding?.groundingSupports) : answer;
      const text = `Web search results for "${query}":\n\n${cited}${formatSources(chunks, 'No URI')}`;
      return textResult(text, `Search results for "${query}" returned.`);
    },
  });
}
