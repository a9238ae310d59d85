import type { IncomingMessage } from 'node:http';

/**
 * Reads and discards what is left of a request body, up to `bound` bytes, so an error answered
 * before the body was read (413 and the like) reaches the client: a fetch-based client that is
 * still sending when the server closes sees a connection reset, not the answer. True when the
 * body ended within the bound; false when it went past it (the caller then answers and closes).
 */
export function discardBody(req: IncomingMessage, bound: number): Promise<boolean> {
  if (req.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let seen = 0;
    const done = (ended: boolean): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > bound) {
        req.pause();
        done(false);
      }
    };
    const onEnd = (): void => done(true);
    const onError = (): void => done(false);
    const onClose = (): void => done(req.readableEnded);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
    req.resume();
  });
}
