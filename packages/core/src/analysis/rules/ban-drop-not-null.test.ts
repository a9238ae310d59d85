import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banDropNotNull } from './ban-drop-not-null';
import { lintStatements } from './lint-statements';

describe('ban-drop-not-null', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE customers ALTER COLUMN email DROP NOT NULL', shopSnapshot(), [banDropNotNull]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-drop-not-null\] /);
    expect(w.join('\n')).toContain('lets NULLs in');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements("ALTER TABLE customers ALTER COLUMN name SET DEFAULT 'x'", shopSnapshot(), [banDropNotNull])).toEqual([]);
  });
});
