import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TLSSocket } from 'node:tls';

const SSL_REQUEST_CODE = 80877103;

/** A throwaway self-signed certificate (openssl CLI), so the proxy's TLS cannot be verified. */
function selfSignedCert(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'dbops-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        path.join(dir, 'k.pem'),
        '-out',
        path.join(dir, 'c.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=dbops-test',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(path.join(dir, 'k.pem')), cert: readFileSync(path.join(dir, 'c.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A PostgreSQL front that speaks TLS with a self-signed certificate and forwards the decrypted
 * stream to a plain server, the way a managed host with TLS looks to the client. It records
 * whether each session used TLS.
 */
export async function startTlsProxy(upstreamPort: number): Promise<{ port: number; sessions: Array<'tls' | 'plain'>; close(): Promise<void> }> {
  const { key, cert } = selfSignedCert();
  const sessions: Array<'tls' | 'plain'> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    client.once('data', (first) => {
      const upstream = connect(upstreamPort, '127.0.0.1');
      upstream.on('error', () => client.destroy());
      sockets.add(upstream);
      if (first.length >= 8 && first.readInt32BE(0) === 8 && first.readInt32BE(4) === SSL_REQUEST_CODE) {
        client.write('S');
        const secure = new TLSSocket(client, { isServer: true, key, cert });
        secure.on('error', () => upstream.destroy());
        sessions.push('tls');
        secure.pipe(upstream).pipe(secure);
      } else {
        sessions.push('plain');
        upstream.write(first);
        client.pipe(upstream).pipe(client);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as { port: number }).port,
    sessions,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
