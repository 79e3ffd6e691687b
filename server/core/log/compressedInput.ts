// A compressed file given as a log (a rotated `server.log.1.zst`) parses as no lines at all:
// said once, from its first bytes, instead of "no stats tables found". Gzip is decompressed
// before the parser where a whole file or stream is read (server/capture/gunzipInput.ts): it
// reaches the parser only where it is not (a followed file, gzip data inside gzip). Only the formats'
// magic numbers at byte 0 count: a log that starts with NUL bytes (the hole a copytruncate
// rotation leaves) is still a text log.

export type CompressedFormat = 'gzip' | 'zstd' | 'xz' | 'bzip2';

interface Magic {
  readonly format: CompressedFormat;
  readonly bytes: readonly number[];
  /** The tool that prints such a file as text, and the file name's usual extension. */
  readonly cat: string;
  readonly extension: string;
}

const MAGIC: readonly Magic[] = [
  { format: 'gzip', bytes: [0x1f, 0x8b], cat: 'zcat', extension: 'gz' },
  { format: 'zstd', bytes: [0x28, 0xb5, 0x2f, 0xfd], cat: 'zstdcat', extension: 'zst' },
  { format: 'xz', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], cat: 'xzcat', extension: 'xz' },
  { format: 'bzip2', bytes: [0x42, 0x5a, 0x68], cat: 'bzcat', extension: 'bz2' },
];

/** The format whose magic number `head` (the input's first bytes) starts with, or null. */
export function compressedFormatOf(head: ArrayLike<number>): CompressedFormat | null {
  for (const m of MAGIC) {
    if (head.length < m.bytes.length) continue;
    let same = true;
    for (let i = 0; i < m.bytes.length && same; i++) same = head[i] === m.bytes[i];
    if (same) return m.format;
  }
  return null;
}

/** What prints such a file as text (`zcat`), and its usual extension (`gz`). */
export function decompressWith(format: CompressedFormat): { readonly cat: string; readonly extension: string } {
  return MAGIC.find((m) => m.format === format) ?? { cat: 'zcat', extension: 'gz' };
}
