import { describe, expect, it } from 'vitest';
import { ConnectionStringError, parseConnectionString, redactConnectionString } from './connection-string';
import { isInternalAddress } from './host-policy';
import { pgClientConfig } from './pg-client-config';
import type { ConnectionTarget } from './connection-target';

describe('parseConnectionString', () => {
  it('reads every part, decoding percent-escapes', () => {
    expect(parseConnectionString('postgresql://app%40x:p%2Fw%40rd@db.example.com:6543/my%20db?sslmode=prefer')).toEqual({
      user: 'app@x',
      password: 'p/w@rd',
      host: 'db.example.com',
      port: 6543,
      database: 'my db',
      sslmode: 'prefer',
    });
  });

  it('defaults port 5432, sslmode require and database to the user name', () => {
    expect(parseConnectionString('postgres://alice:pw@h')).toMatchObject({ port: 5432, sslmode: 'require', database: 'alice' });
  });

  it('accepts IPv6 hosts', () => {
    expect(parseConnectionString('postgresql://u:p@[2001:db8::1]:5433/d').host).toBe('2001:db8::1');
  });

  it.each(['mysql://u:p@h/d', 'postgresql://u:p@h/d?sslmode=verify-full', 'postgresql://u:p@h:0/d', 'postgresql://:p@h/d', 'postgresql://u:p@h1,h2/d'])(
    'rejects %s without quoting it',
    (raw) => {
      try {
        parseConnectionString(raw);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ConnectionStringError);
        expect((e as Error).message).not.toContain(':p@');
      }
    },
  );

  it('redacts the password', () => {
    expect(redactConnectionString('postgresql://u:s3cr@t@h/d')).toBe('postgresql://u:***@h/d');
  });
});

describe('pgClientConfig', () => {
  const target = (sslmode: ConnectionTarget['sslmode'], preferPlain?: boolean): ConnectionTarget => ({
    id: 'c',
    userId: 'u',
    name: 'n',
    dbType: 'postgresql',
    connectionString: `postgresql://u:p@h:5433/d?sslmode=${sslmode}`,
    sslmode,
    host: 'h',
    port: 5433,
    database: 'd',
    isActive: true,
    preferPlain,
  });

  it('maps sslmode to TLS without verification, plain, or the prefer probe result', () => {
    expect(pgClientConfig(target('require')).ssl).toEqual({ rejectUnauthorized: false });
    expect(pgClientConfig(target('disable')).ssl).toBe(false);
    expect(pgClientConfig(target('prefer')).ssl).toEqual({ rejectUnauthorized: false });
    expect(pgClientConfig(target('prefer', true)).ssl).toBe(false);
  });

  it('passes fields one by one, with timeout and application name', () => {
    const c = pgClientConfig(target('disable'), { statementTimeoutMs: 10_000, applicationName: 'dbops-t2s' });
    expect(c).toMatchObject({ host: 'h', port: 5433, user: 'u', password: 'p', database: 'd', statement_timeout: 10_000, application_name: 'dbops-t2s' });
    expect(c).not.toHaveProperty('connectionString');
  });
});

describe('isInternalAddress', () => {
  it.each(['127.0.0.1', '10.0.0.5', '172.16.3.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1'])(
    'blocks %s',
    (a) => expect(isInternalAddress(a)).toBe(true),
  );
  it.each(['8.8.8.8', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('allows %s', (a) => expect(isInternalAddress(a)).toBe(false));
});

describe('redactConnectionString', () => {
  it.each([
    ['postgresql://u:p/w@rd@h:5432/d', 'postgresql://u:***@h:5432/d'],
    ['postgresql://u@h/d', 'postgresql://u@h/d'],
    ['postgresql://h/d', 'postgresql://h/d'],
  ])('%s', (raw, want) => expect(redactConnectionString(raw)).toBe(want));
});
