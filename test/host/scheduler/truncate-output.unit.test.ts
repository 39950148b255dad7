import { describe, expect, it } from 'vitest';
import { effectiveThreshold, MAX_RESULT_SIZE_CAP } from '../../../host/scheduler/truncate-output.js';

describe('effectiveThreshold: the settings threshold, raised by what a tool declares, up to a cap', () => {
  it('defaults to 40,000 characters; 0 or less disables truncation whatever the tool says', () => {
    expect(effectiveThreshold(undefined, undefined)).toBe(40_000);
    expect(effectiveThreshold(0, 1_000_000)).toBe(0);
    expect(effectiveThreshold(-1, undefined)).toBe(0);
  });

  it("a tool's larger maximum raises it, never lowers it, and never past the cap", () => {
    expect(effectiveThreshold(1000, 5000.7)).toBe(5000);
    expect(effectiveThreshold(1000, 10)).toBe(1000);
    expect(effectiveThreshold(1000, Number.POSITIVE_INFINITY)).toBe(1000);
    expect(effectiveThreshold(1000, 1e12)).toBe(MAX_RESULT_SIZE_CAP);
  });
});
