import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileWriter } from './file-writer';

const dir = mkdtempSync(path.join(tmpdir(), 'dbops-file-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fileWriter', () => {
  it('writes every piece as UTF-8, in order, through one buffer grown as needed', () => {
    const file = path.join(dir, 'out.txt');
    const pieces = ['-- ascii\n', 'é€'.repeat(5000), '\n', '𝄞 surrogate pairs 𝄞'.repeat(300), 'x'.repeat(70_000), 'ü'];
    const fd = openSync(file, 'w');
    try {
      const write = fileWriter(fd);
      for (const p of pieces) write(p);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe(pieces.join(''));
  });
});
