import { createServer } from 'node:net';

/** A TCP port that was free on 127.0.0.1 a moment ago (the OS picks it; 0-bind then close). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
