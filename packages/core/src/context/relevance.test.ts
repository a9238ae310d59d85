import { describe, expect, it } from 'vitest';
import { EXCERPT_CHARS, excerptAround } from './excerpt';
import { combinedRelevance } from './relevance';

describe('combinedRelevance', () => {
  const base = { queryGiven: true, tablesGiven: true, simQuery: 0, simTables: 0, mentionsTable: false };

  it('puts any chunk naming a table at or above 0.5 and any other at or below', () => {
    expect(combinedRelevance({ ...base, simQuery: 1, simTables: 1 })).toBe(0.5);
    expect(combinedRelevance({ ...base, mentionsTable: true, simQuery: -0.3 })).toBe(0.5);
    expect(combinedRelevance({ ...base, mentionsTable: true, simQuery: 0.4, simTables: 0.2 })).toBe(0.67);
  });

  it('is the plain similarity without table names, clamped to [0, 1]', () => {
    expect(combinedRelevance({ ...base, tablesGiven: false, simQuery: 0.1234567 })).toBe(0.1235);
    expect(combinedRelevance({ ...base, tablesGiven: false, simQuery: -1 })).toBe(0);
    expect(combinedRelevance({ ...base, tablesGiven: false, simQuery: Number.NaN })).toBe(0);
    expect(combinedRelevance({ ...base, queryGiven: false, simTables: 0.6, mentionsTable: true })).toBe(0.8);
  });
});

describe('excerptAround', () => {
  it('keeps short chunks whole and centres long ones on the first mention', () => {
    expect(excerptAround('short text', ['orders'])).toBe('short text');
    const long = `${'lorem ipsum '.repeat(200)}the orders table matters ${'dolor sit '.repeat(100)}`;
    const ex = excerptAround(long, ['public.orders']);
    expect(ex).toContain('the orders table matters');
    expect(ex.startsWith('…')).toBe(true);
    expect(ex.endsWith('…')).toBe(true);
    expect(ex.length).toBeLessThanOrEqual(EXCERPT_CHARS + 2);
    expect(excerptAround(long, []).startsWith('lorem')).toBe(true);
  });
});
