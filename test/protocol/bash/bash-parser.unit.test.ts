import { describe, expect, it } from 'vitest';
import { getBashParser, preloadBashParser, WARM_UP_COMMAND } from '../../../protocol/bash/bash-parser.js';

describe('bash parser warm-up', () => {
  it("parses its warm-up command line cleanly, so the warm-up runs the grammar's code and not its error recovery", async () => {
    await preloadBashParser();
    const tree = (await getBashParser()).parse(WARM_UP_COMMAND)!;
    try {
      expect(tree.rootNode.hasError).toBe(false);
      const kinds = new Set(
        tree.rootNode
          .descendantsOfType([
            'pipeline',
            'list',
            'command_substitution',
            'arithmetic_expansion',
            'file_redirect',
            'herestring_redirect',
            'variable_assignment',
            'raw_string',
          ])
          .map((n) => n.type),
      );
      expect([...kinds].sort()).toEqual([
        'arithmetic_expansion',
        'command_substitution',
        'file_redirect',
        'herestring_redirect',
        'list',
        'pipeline',
        'raw_string',
        'variable_assignment',
      ]);
    } finally {
      tree.delete();
    }
  });
});
