import { describe, expect, it } from 'vitest';
import { redact } from './logger';

describe('redact', () => {
  it('masks passwords in connection strings, raw keys, password pairs and bearer tokens', () => {
    const text = redact(
      'connect postgresql://app:s3cr3t@db.example:5432/prod failed; key dbo_abcdefghijkl; password=hunter2; Authorization: Bearer eyJ.abc.def',
    );
    expect(text).not.toMatch(/s3cr3t|abcdefghijkl|hunter2|eyJ\.abc/);
    expect(text).toContain('postgresql://app:***@db.example:5432/prod');
  });

  it('masks a password that holds unescaped slashes or at-signs', () => {
    expect(redact('postgres://u:pa/ss@w0rd@host/db')).toBe('postgres://u:***@host/db');
  });

  it('masks Stripe secret and webhook keys', () => {
    const text = redact('stripe failed with sk_live_51HxYzAbCdEfGh and whsec_AbCdEfGh12345678');
    expect(text).toBe('stripe failed with sk_live_*** and whsec_***');
  });
});
