import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { startTlsProxy } from './tls-proxy';

describe('sslmode against a server that offers TLS (self-signed certificate)', () => {
  let t: TestRuntime;
  let db: { url: string; name: string; drop(): Promise<void> };
  let proxy: Awaited<ReturnType<typeof startTlsProxy>>;
  let viaProxy: (sslmode: string) => string;

  beforeAll(async () => {
    t = await startTestRuntime();
    db = await createScratchDatabase('tls');
    proxy = await startTlsProxy(Number(new URL(db.url).port));
    viaProxy = (sslmode) => {
      const u = new URL(db.url);
      u.port = String(proxy.port);
      u.search = sslmode ? `?sslmode=${sslmode}` : '';
      return u.toString();
    };
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    await db.drop();
  });

  const register = async (sslmode: string) => {
    proxy.sessions.length = 0;
    const res = await t.request('POST', '/connections', {
      jwt: await t.jwt('tina'),
      body: { name: sslmode || 'default', db_type: 'provider_a', connection_string: viaProxy(sslmode) },
    });
    return { res, sessions: [...proxy.sessions] };
  };

  it('require (and the default) encrypts and does not verify the certificate', async () => {
    for (const mode of ['require', '']) {
      const { res, sessions } = await register(mode);
      expect(res.status, res.text).toBe(201);
      expect(sessions).toEqual(['tls']);
    }
  });

  it('prefer uses TLS when the server offers it', async () => {
    const { res, sessions } = await register('prefer');
    expect(res.status).toBe(201);
    expect(sessions).toEqual(['tls']);
  });

  it('disable never asks for TLS', async () => {
    const { res, sessions } = await register('disable');
    expect(res.status).toBe(201);
    expect(sessions).toEqual(['plain']);
  });

  it('introspection of a require connection goes over TLS too', async () => {
    const { res } = await register('require');
    proxy.sessions.length = 0;
    const intro = await t.request('POST', `/connections/${res.body.data.id}/introspect`, { jwt: await t.jwt('tina') });
    expect(intro.status).toBe(200);
    // The catalog is read over one or two sessions (catalog-read.ts); every one must be TLS.
    expect(proxy.sessions.length).toBeGreaterThan(0);
    expect(new Set(proxy.sessions)).toEqual(new Set(['tls']));
  });
});
