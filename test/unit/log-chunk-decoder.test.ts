// The ASCII fast path of the chunk decoder gives exactly what one UTF-8 TextDecoder gives
// for the whole stream: multi-byte characters and invalid bytes cut anywhere, a byte-order
// mark at the start (dropped) and later (kept), partial sequences at the end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChunkDecoder } from '../../server/core/log/lines';
import { mulberry32 } from '../../server/simulate/seededRandom';

function decodeInChunks(bytes: Uint8Array, cuts: number[]): string {
  const decoder = new ChunkDecoder();
  let out = '';
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    out += decoder.decode(bytes.subarray(at, cut));
    at = cut;
  }
  return out + decoder.end();
}

const PIECES: number[][] = [
  [0x61],
  [0x7c, 0x20],
  [0x0a],
  [0x0d, 0x0a], // ASCII
  [0xc3, 0xa9],
  [0xe2, 0x82, 0xac],
  [0xf0, 0x9f, 0x98, 0x80], // é € 😀
  [0xef, 0xbb, 0xbf], // BOM
  [0xff],
  [0xc3],
  [0x80],
  [0xe2, 0x82], // invalid / cut sequences
];

test('random byte streams cut at random places decode as one TextDecoder stream does', () => {
  const random = mulberry32(7);
  for (let iteration = 0; iteration < 3000; iteration++) {
    const bytes: number[] = [];
    const asciiRun = random() < 0.5;
    const n = 1 + Math.floor(random() * 40);
    for (let i = 0; i < n; i++) {
      const piece =
        asciiRun && random() < 0.8
          ? (PIECES[Math.floor(random() * 4)] as number[])
          : (PIECES[Math.floor(random() * PIECES.length)] as number[]);
      bytes.push(...piece);
    }
    const all = Uint8Array.from(bytes);
    const cuts = [
      ...new Set(Array.from({ length: Math.floor(random() * 6) }, () => Math.floor(random() * (all.length + 1)))),
    ].sort((a, b) => a - b);
    assert.equal(
      decodeInChunks(all, cuts),
      new TextDecoder('utf-8').decode(all),
      `bytes ${[...all].map((b) => b.toString(16)).join(' ')} cut at ${cuts.join(',')}`,
    );
  }
});

test('a BOM is dropped at the start only, whichever path decoded the chunks before it', () => {
  const bom = [0xef, 0xbb, 0xbf];
  const text = (s: string): number[] => [...new TextEncoder().encode(s)];
  assert.equal(decodeInChunks(Uint8Array.from([...bom, ...text('abc')]), [3]), 'abc');
  assert.equal(decodeInChunks(Uint8Array.from([...text('abc'), ...bom, ...text('d')]), [3]), 'abc\ufeffd');
  assert.equal(decodeInChunks(Uint8Array.from([...text('ab'), 0xc3, 0xa9, ...bom]), [2, 4]), 'abé\ufeff');
});
