import { writeSync } from 'node:fs';

/**
 * Writes text to the open file `fd` a piece at a time, each piece converted to UTF-8 in one
 * buffer kept for the next (not a new one each time, which for a large report was fresh memory
 * from the kernel on every run) and written whole (a write may take fewer bytes, as to a pipe).
 */
export function fileWriter(fd: number): (text: string) => void {
  let bytes = Buffer.allocUnsafeSlow(0);
  return (text) => {
    // At most 3 bytes per UTF-16 code unit: the text always fits.
    if (bytes.length < text.length * 3) bytes = Buffer.allocUnsafeSlow(text.length * 3);
    const n = bytes.write(text);
    for (let at = 0; at < n;) at += writeSync(fd, bytes, at, n - at);
  };
}
