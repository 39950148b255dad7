import { describe, expect, it } from 'vitest';
import { splitCommand } from '../../discovery-bridge/shell-words.js';

describe('splitCommand', () => {
  it('splits words with quotes and escapes like a shell', () => {
    expect(splitCommand(`node "my tools/discover.js" --mode 'a b' c\\ d`)).toEqual([
      'node',
      'my tools/discover.js',
      '--mode',
      'a b',
      'c d',
    ]);
  });

  it('expands $VAR from the given environment and keeps quoted dollars literal', () => {
    expect(splitCommand(`run $DIR/x "\${NAME}-y" '$DIR' $MISSING`, { DIR: '/p', NAME: 'n' })).toEqual([
      'run',
      '/p/x',
      'n-y',
      '$DIR',
      '',
    ]);
  });

  it.each([
    ['tools | jq .', '|'],
    ['tools > out.json', '>'],
    ['a && b', '&&'],
    ['a; b', ';'],
    ['ls *.json', '*.json'],
    ['tools # comment', '# comment'],
    ['echo $(id)', '('],
  ])('rejects %j, which needs a shell', (line, token) => {
    expect(() => splitCommand(line)).toThrow(`contains "${token}", which needs a shell`);
  });

  it('rejects an empty command', () => {
    expect(() => splitCommand('   ')).toThrow('is empty');
  });
});
