// A one-shot reader's chunk (1 MB) handed to the parser in 64 KB pieces, each piece's records
// taken by the caller before the next is parsed. The records of a whole 1 MB push would all be
// alive together until it returns, and every young-generation collection during it copies
// them: a cold `analyze` of the 200 MB bench log ran ~5% faster so (docs/performance.md).
import type { ParseOutput } from '../records';
import type { LogStreamParser } from './logStreamParser';

/** Bytes parsed before their records are taken. */
export const PUSH_PIECE_BYTES = 1 << 16;

/** Pushes `bytes` into `parser` piece by piece, handing each piece's output to `take`. */
export function pushInPieces(parser: LogStreamParser, bytes: Uint8Array, take: (output: ParseOutput) => void): void {
  if (bytes.length <= PUSH_PIECE_BYTES) return take(parser.push(bytes));
  for (let at = 0; at < bytes.length; at += PUSH_PIECE_BYTES)
    take(parser.push(bytes.subarray(at, Math.min(bytes.length, at + PUSH_PIECE_BYTES))));
}
