import { describe, expect, it } from 'vitest';
import { relevance, type SearchableTool } from '../../../host/tools/tool-search.js';

const tool = (serverAlias: string, toolName: string, description: string): SearchableTool => ({
  exposedName: `${serverAlias}__${toolName}`,
  serverAlias,
  toolName,
  description,
  builtIn: false,
  declaration: { name: `${serverAlias}__${toolName}`, description },
});

describe('relevance of a tool to the words of a message', () => {
  const invoices = tool('billing', 'list_invoices', 'Lists the INVOICES of a customer (paged); see get_invoice.');

  it('weighs a word of the name 3, of the server 2, of the description 1, whole words only', () => {
    expect(relevance(invoices, 'invoices')).toBe(3 + 1);
    // The server's name is part of the exposed name too.
    expect(relevance(invoices, 'billing')).toBe(2 + 2);
    expect(relevance(invoices, 'customer')).toBe(1);
    // "paged" stands between parentheses, "get" and "invoice" around an underscore: whole words all
    // (and "invoice" is part of the exposed name).
    expect(relevance(invoices, 'paged get invoice')).toBe(1 + 1 + (2 + 1));
    // Part of a word is no word: "custom" and "omer" are inside "customer".
    expect(relevance(invoices, 'custom omer')).toBe(0);
    // Case and punctuation do not matter.
    expect(relevance(invoices, 'Lists, the; CUSTOMER!')).toBe(1 + 1 + 1);
  });

  it('counts a part of the exposed name of three letters or more as 2 when no name word matches', () => {
    expect(relevance(invoices, 'voi')).toBe(2);
    expect(relevance(invoices, 'vo')).toBe(0);
  });

  it('gives nothing for a message without words', () => {
    expect(relevance(invoices, '?! a')).toBe(0);
  });
});
