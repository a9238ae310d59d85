/**
 * A one-dimensional array parameter in PostgreSQL's binary format (array_recv): int32 number of
 * dimensions, int32 has-nulls flag, int32 element type oid, int32 length and lower bound, then
 * each element as int32 byte length and its binary form. Both `pg` and the PGlite store send a
 * Buffer parameter in binary, so a `$n::vector[]` parameter built from `vectorParam` elements
 * reaches the server as floats, with no text to parse. `elementOid` must be the oid of the type
 * the parameter is cast to (an extension type's oid differs between databases: look it up).
 */
export function binaryArrayParam(elementOid: number, elements: readonly Uint8Array[]): Buffer {
  if (!Number.isInteger(elementOid) || elementOid <= 0) throw new Error(`not a type oid: ${elementOid}`);
  const size = 20 + elements.reduce((n, e) => n + 4 + e.byteLength, 0);
  const b = Buffer.allocUnsafe(size);
  b.writeInt32BE(1, 0);
  b.writeInt32BE(0, 4);
  b.writeUInt32BE(elementOid, 8);
  b.writeInt32BE(elements.length, 12);
  b.writeInt32BE(1, 16);
  let at = 20;
  for (const e of elements) {
    b.writeInt32BE(e.byteLength, at);
    b.set(e, at + 4);
    at += 4 + e.byteLength;
  }
  return b;
}
