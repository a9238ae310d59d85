import { describe, expect, it } from 'vitest';
import { chunkMarkdown, chunkPlainText, markdownSections, overlapTail, splitLongText, splitParagraphs } from './chunk-text';
import { CHUNK_MAX_CHARS, CHUNK_TARGET_CHARS } from './limits';

const para = (word: string, n: number): string => Array.from({ length: n }, (_, i) => `${word} sentence ${i}.`).join(' ');

describe('markdown chunking', () => {
  it('splits at headings and records the heading path', () => {
    const md = '# Billing\nIntro text.\n\n## Refunds\nRefunds go to the refunds table.\n\n# Shipping\nShips fast.\n';
    expect(markdownSections(md).map((s) => s.heading)).toEqual(['Billing', 'Billing > Refunds', 'Shipping']);
    const chunks = chunkMarkdown(md);
    expect(chunks.map((c) => [c.index, c.heading, c.content])).toEqual([
      [0, 'Billing', 'Intro text.'],
      [1, 'Billing > Refunds', 'Refunds go to the refunds table.'],
      [2, 'Shipping', 'Ships fast.'],
    ]);
  });

  it('does not treat # lines inside code fences as headings', () => {
    const md = '# Title\n```sh\n# not a heading\necho hi\n```\n';
    const chunks = chunkMarkdown(md);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.content).toContain('# not a heading');
  });

  it('packs paragraphs up to the target and overlaps consecutive chunks of a section', () => {
    const body = Array.from({ length: 30 }, (_, i) => para(`p${i}`, 6)).join('\n\n');
    const chunks = chunkMarkdown(`# Long\n${body}`);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(CHUNK_TARGET_CHARS + CHUNK_MAX_CHARS);
    for (let i = 1; i < chunks.length; i++) {
      const tail = overlapTail(chunks[i - 1]!.content);
      expect(tail.length).toBeGreaterThan(0);
      expect(chunks[i]!.content.startsWith(tail)).toBe(true);
    }
    // every paragraph survives somewhere
    for (let i = 0; i < 30; i++) expect(chunks.some((c) => c.content.includes(`p${i} sentence 5.`))).toBe(true);
  });

  it('keeps a document of headings only', () => {
    expect(chunkMarkdown('# A\n## B\n')).toHaveLength(1);
  });
});

describe('plain text chunking', () => {
  it('cuts an over-long paragraph at sentence ends', () => {
    const long = para('word', 200);
    const pieces = splitLongText(long);
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
      expect(p.endsWith('.')).toBe(true);
    }
  });

  it('hard-cuts text without any break', () => {
    expect(splitLongText('x'.repeat(4000)).map((p) => p.length)).toEqual([1600, 1600, 800]);
  });

  it('splits paragraphs at blank lines and normalises CRLF', () => {
    expect(splitParagraphs('a\nb\n\n\nc')).toEqual(['a\nb', 'c']);
    expect(chunkPlainText('one\r\n\r\ntwo').map((c) => c.content)).toEqual(['one\n\ntwo']);
  });
});
