import { describe, expect, it } from 'vitest';
import { riskyOption } from '../../../protocol/bash/risky-options.js';

const risky = (name: string, ...args: string[]) => riskyOption({ name, args });

describe('riskyOption: options that make an allow-listed command write or run', () => {
  it('plain reads are not risky', () => {
    expect(risky('git', 'log', '-5')).toBeUndefined();
    expect(risky('find', '.', '-name', '*.ts')).toBeUndefined();
    expect(risky('sort', 'a.txt')).toBeUndefined();
  });

  it('find actions and output options are', () => {
    expect(risky('find', '.', '-delete')).toBe('find -delete writes or runs');
    expect(risky('find', '.', '-exec', 'rm', '{}', ';')).toBe('find -exec writes or runs');
    expect(risky('sort', '-o', 'out.txt', 'a.txt')).toMatch(/writes a file or runs a program/);
  });

  it('git -c sets any configuration key, program-running ones included', () => {
    expect(risky('git', '-c', 'core.pager=sh', 'log')).toMatch(/git -c/);
  });

  it('tee writes its operands; an argument known only at run time may be an option', () => {
    expect(risky('tee', 'file.txt')).toBeDefined();
    expect(riskyOption({ name: 'sort', args: ['*'], argsDynamic: [true] })).toMatch(/known only at run time/);
  });
});
