import type { Duplex } from 'node:stream';

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

/** Status, code and message for what Node's HTTP parser refused, as Node itself would answer it. */
function classify(code: string | undefined): [number, string, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'HEADERS_TOO_LARGE', 'The request line and headers (the query string included) exceed the 16 KB limit; send large values in the body.'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'PAYLOAD_TOO_LARGE', 'Chunk extensions are too large.'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'REQUEST_TIMEOUT', 'The request was not received in time.'];
    default:
      return [400, 'BAD_REQUEST', 'The request is not valid HTTP (for example a NUL byte or control character in a header or in the request line).'];
  }
}

/**
 * Node's `clientError`: the HTTP parser refused the request before any route ran (headers over
 * the limit, NUL bytes in a header or the request line). Node's default answer has an empty
 * body; this one carries the envelope like every other error of the gateway.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] = classify(error.code);
  const body = JSON.stringify({ success: false, data: null, error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
