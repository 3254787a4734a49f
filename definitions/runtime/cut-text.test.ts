import { describe, expect, it } from 'vitest';
import { cutText } from './cut-text.js';

describe('cutText', () => {
  it('keeps text within the bound and cuts longer text by code points, marked', () => {
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('abcd', 3)).toBe('ab…');
    // Two astral characters are four UTF-16 units but two characters: kept whole, never split.
    expect(cutText('😀😀', 2)).toBe('😀😀');
    expect(cutText('😀😀😀', 2)).toBe('😀…');
  });
});
