import { describe, expect, it } from 'vitest';
import { McpCallError, withTail } from '../../../host/mcp/errors.js';

describe('McpCallError', () => {
  it('carries its kind and server, not delivered unless proven', () => {
    const e = new McpCallError('timeout', 'MCP tool call timed out after 60000ms', 'crm');
    expect([e.kind, e.alias, e.message, e.name, e.notDelivered, e instanceof Error]).toEqual([
      'timeout',
      'crm',
      'MCP tool call timed out after 60000ms',
      'McpCallError',
      false,
      true,
    ]);
  });

  it('a cancelled call is an AbortError, as the rest of the host recognises cancellation', () => {
    expect(new McpCallError('cancelled', 'cancelled', 's').name).toBe('AbortError');
  });
});

describe('withTail', () => {
  it("adds the server's last stderr when there is any", () => {
    expect(withTail('Server crashed', '  boom\nat line 3\n\n')).toBe(
      'Server crashed\nLast stderr output:\nboom\nat line 3',
    );
    expect(withTail('Server crashed', ' \n ')).toBe('Server crashed');
  });
});
