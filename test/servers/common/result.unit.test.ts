import { describe, expect, it } from 'vitest';
import { META } from '../../../protocol/meta.js';
import { USER_DENIED_TEXT } from '../../../protocol/tool-names.js';
import { cancelledResult, errorResult, textResult, ToolError, userCancelled } from '../../../servers/common/result.js';

describe('results', () => {
  it('a text result, with the display for the user in _meta only when given', () => {
    expect(textResult('for the model')).toEqual({ content: [{ type: 'text', text: 'for the model' }] });
    expect(textResult('m', 'shown')).toEqual({
      content: [{ type: 'text', text: 'm' }],
      _meta: { [META.display]: 'shown' },
    });
    const diff = {
      fileDiff: 'd',
      fileName: 'a',
      filePath: '/a',
      originalContent: null,
      newContent: 'x',
      isNewFile: true,
    };
    expect(textResult('m', diff)._meta?.[META.display]).toEqual(diff);
  });

  it('an error result is isError with its error type for the model, never a protocol error', () => {
    expect(errorResult('File not found: a.ts', 'file_not_found')).toEqual({
      content: [{ type: 'text', text: 'File not found: a.ts' }],
      isError: true,
      _meta: { [META.errorType]: 'file_not_found' },
    });
    expect(errorResult('x', 'invalid_tool_params', 'short')._meta).toEqual({
      [META.errorType]: 'invalid_tool_params',
      [META.display]: 'short',
    });
  });

  it("a declined confirmation reads as Gemini CLI's denial, both as a result and as a thrown error", () => {
    expect(cancelledResult()).toEqual(errorResult(USER_DENIED_TEXT, 'execution_failed'));
    const e = userCancelled();
    expect(e).toBeInstanceOf(ToolError);
    expect([e.message, e.errorType, e.display]).toEqual([USER_DENIED_TEXT, 'execution_failed', undefined]);
  });

  it('ToolError keeps its type and display for the kit to turn into a result', () => {
    const e = new ToolError('Path is outside the workspace', 'path_not_in_workspace', 'outside');
    expect([e.message, e.errorType, e.display, e instanceof Error]).toEqual([
      'Path is outside the workspace',
      'path_not_in_workspace',
      'outside',
      true,
    ]);
  });
});
