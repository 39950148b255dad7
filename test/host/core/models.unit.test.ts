import { describe, expect, it } from 'vitest';
import { ModelSelection, modelChain, resolveModelAlias } from '../../../host/core/models.js';

describe("Gemini CLI's model aliases and fallback chains", () => {
  it.each([
    ['auto', 'gemini-3-pro-preview'],
    ['pro', 'gemini-3-pro-preview'],
    ['flash', 'gemini-3-flash-preview'],
    ['flash-lite', 'gemini-3.1-flash-lite'],
    ['auto-gemini-3', 'gemini-3-pro-preview'],
    ['auto-gemini-2.5', 'gemini-2.5-pro'],
    ['models/gemini-2.5-pro', 'gemini-2.5-pro'],
    [' my-tuned-model ', 'my-tuned-model'],
  ])('%s is %s', (name, model) => expect(resolveModelAlias(name)).toBe(model));

  it('each choice has the chain Gemini CLI falls back along; a full name outside them has none', () => {
    expect(modelChain('auto')).toEqual(['gemini-3-pro-preview', 'gemini-3-flash-preview']);
    expect(modelChain('flash')).toEqual(['gemini-3-flash-preview', 'gemini-3-pro-preview']);
    expect(modelChain('flash-lite')).toEqual(['gemini-3.1-flash-lite', 'gemini-3.5-flash', 'gemini-2.5-pro']);
    expect(modelChain('auto-gemini-2.5')).toEqual(['gemini-2.5-pro', 'gemini-3.5-flash']);
    expect(modelChain('gemini-2.5-pro')).toEqual(['gemini-2.5-pro']);
    expect(modelChain(' models/auto-gemini-2.5')).toEqual(['gemini-2.5-pro', 'gemini-3.5-flash']);
  });

  it('a selection moves down its chain and never back to a model whose quota is used up', () => {
    const s = new ModelSelection('flash-lite');
    expect(s.inUse).toBe('gemini-3.1-flash-lite');
    expect(s.fallback('gemini-3.1-flash-lite')).toBe('gemini-3.5-flash');
    expect(s.fallback('gemini-3.5-flash')).toBe('gemini-2.5-pro');
    expect(s.inUse).toBe('gemini-2.5-pro');
    expect(s.fallback('gemini-2.5-pro')).toBeUndefined();
    expect(s.inUse).toBe('gemini-2.5-pro');
    expect(new ModelSelection('gemini-2.5-flash').fallback('gemini-2.5-flash')).toBeUndefined();
  });
});
