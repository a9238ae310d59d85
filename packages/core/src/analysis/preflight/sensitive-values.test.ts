import { describe, expect, it } from 'vitest';
import { isSensitiveColumn, maskValue, showValue } from './sensitive-values';

describe('sensitive values', () => {
  it('masks personal columns and keeps others readable', () => {
    expect(isSensitiveColumn('email')).toBe(true);
    expect(isSensitiveColumn('customer_email')).toBe(true);
    expect(isSensitiveColumn('sku')).toBe(false);
    expect(showValue('email', 'jane.doe@example.com')).toBe('j***@***.com');
    expect(showValue('password_hash', 'abcdef')).toBe('a***');
    expect(showValue('sku', 'SKU-1')).toBe('SKU-1');
    expect(showValue('sku', null)).toBe('NULL');
    expect(maskValue('')).toBe('');
  });
});
