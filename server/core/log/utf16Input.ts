// A log saved as UTF-16 (PowerShell 5's `>` redirect writes UTF-16LE with a byte-order mark)
// would read as no lines at all: every other byte is NUL. Told from the first bytes: a
// byte-order mark, or ASCII text's NUL-every-other-byte pattern. A log that starts with NUL
// bytes only (the hole a copytruncate rotation leaves) is still UTF-8.

export type Utf16Encoding = 'utf-16le' | 'utf-16be';

/** Bytes needed to decide. */
export const UTF16_HEAD_BYTES = 4;

/** The UTF-16 encoding the input's first bytes show, or null (UTF-8, or too few bytes to tell). */
export function utf16EncodingOf(head: ArrayLike<number>): Utf16Encoding | null {
  if (head.length < 2) return null;
  const [b0, b1] = [head[0] as number, head[1] as number];
  if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (head.length < UTF16_HEAD_BYTES) return null;
  const [b2, b3] = [head[2] as number, head[3] as number];
  if (b0 !== 0 && b1 === 0 && b2 !== 0 && b3 === 0) return 'utf-16le';
  if (b0 === 0 && b1 !== 0 && b2 === 0 && b3 !== 0) return 'utf-16be';
  return null;
}
