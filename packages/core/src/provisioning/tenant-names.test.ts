import { describe, expect, it } from 'vitest';
import { scramSha256Verifier } from './scram-verifier';
import { tenantConnectionString } from './shared-instance-client';
import { tenantNames, tenantPassword } from './tenant-names';

describe('tenant names, passwords and strings', () => {
  it('derives safe identifiers from the id and refuses anything else', () => {
    expect(tenantNames('0F8FAD5B-D9CB-469F-A165-70867728950E')).toEqual({
      schemaName: 'dbops_0f8fad5bd9cb469fa16570867728950e',
      roleName: 'dbops_0f8fad5bd9cb469fa16570867728950e',
    });
    expect(() => tenantNames('x"; DROP ROLE postgres; --')).toThrow();
  });

  it('makes long, distinct, URL-safe passwords', () => {
    const a = tenantPassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(tenantPassword()).not.toBe(a);
  });

  it('formats a SCRAM-SHA-256 verifier PostgreSQL accepts, salted per call', () => {
    const salt = Buffer.alloc(16, 1);
    const v = scramSha256Verifier('pencil', salt);
    expect(v).toMatch(/^SCRAM-SHA-256\$4096:AQEBAQEBAQEBAQEBAQEBAQ==\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=$/);
    expect(scramSha256Verifier('pencil', salt)).toBe(v);
    expect(scramSha256Verifier('pencil')).not.toBe(v);
    expect(v).not.toContain('pencil');
  });

  it("builds the tenant's string from the admin URL, carrying over only sslmode", () => {
    const s = tenantConnectionString('postgresql://admin:secret@db.example.com:6543/shared?sslmode=require&application_name=x', 'dbops_ab', 'pw_-1');
    expect(s).toBe('postgresql://dbops_ab:pw_-1@db.example.com:6543/shared?sslmode=require');
    expect(tenantConnectionString('postgresql://a:b@h/db', 'r', 'p')).toBe('postgresql://r:p@h/db?sslmode=prefer');
  });
});
