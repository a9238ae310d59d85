import { describe, expect, it } from 'vitest';
import { batchedWriter } from './batched-writer';

const piecesOf = (parts: string[], size: number): string[] => {
  const pieces: string[] = [];
  const out = batchedWriter((text) => pieces.push(text), size);
  for (const p of parts) out.write(p);
  out.end();
  return pieces;
};

describe('batchedWriter', () => {
  it('hands on the same text, small parts gathered and a long one cut, no piece over the size', () => {
    const parts = ['{', '\n  "a": 1', ',\n', 'x'.repeat(250), 'é€𝄞'.repeat(40), '', '\n}', '\n'];
    const pieces = piecesOf(parts, 64);
    expect(pieces.join('')).toBe(parts.join(''));
    expect(pieces.every((p) => p.length > 0 && p.length <= 64)).toBe(true);
    expect(pieces.length).toBeLessThanOrEqual(Math.ceil(parts.join('').length / 64) + 1);
  });

  it('never cuts between the two halves of a surrogate pair', () => {
    // '𝄞' is two UTF-16 code units: at every offset, some cut would fall inside one.
    for (let offset = 0; offset < 2; offset++) {
      const text = `${'x'.repeat(offset)}${'𝄞'.repeat(100)}`;
      const pieces = piecesOf([text], 7);
      expect(pieces.join('')).toBe(text);
      // Each piece is valid UTF-16 on its own, so its UTF-8 loses nothing.
      for (const p of pieces) expect(Buffer.from(p).toString()).toBe(p);
    }
  });

  it('hands on nothing for nothing, and a short text whole at the end', () => {
    expect(piecesOf([], 8)).toEqual([]);
    expect(piecesOf(['', 'ab', 'c'], 8)).toEqual(['abc']);
  });
});
