// A log saved as UTF-16 (PowerShell 5's `>` redirect writes UTF-16LE with a byte-order mark)
// would read as no lines at all: every other byte is NUL. Told from the first bytes: a
// byte-order mark followed by text whose characters have a NUL byte (ASCII, as every log line
// starts), or ASCII text's NUL-every-other-byte pattern without a mark. Bytes FF FE before
// UTF-8 text (no NUL after them) are garbage in a UTF-8 log, and a log that starts with NUL
// bytes only (the hole a copytruncate rotation leaves) is UTF-8 too.

export type Utf16Encoding = 'utf-16le' | 'utf-16be';

/** Bytes needed to decide (a mark and two characters). */
export const UTF16_HEAD_BYTES = 6;

/** Whether some byte at `from`, `from + 2`, ... of `head` is NUL. */
function nulEveryOther(head: ArrayLike<number>, from: number): boolean {
  for (let i = from; i < head.length; i += 2) if (head[i] === 0) return true;
  return false;
}

/** The UTF-16 encoding the input's first bytes show, or null (UTF-8). */
export function utf16EncodingOf(head: ArrayLike<number>): Utf16Encoding | null {
  if (head.length < 2) return null;
  const b0 = head[0] as number;
  const b1 = head[1] as number;
  if (b0 === 0xff && b1 === 0xfe) return head.length === 2 || nulEveryOther(head, 3) ? 'utf-16le' : null;
  if (b0 === 0xfe && b1 === 0xff) return head.length === 2 || nulEveryOther(head, 2) ? 'utf-16be' : null;
  if (head.length < 4) return null;
  const b2 = head[2] as number;
  const b3 = head[3] as number;
  if (b0 !== 0 && b1 === 0 && b2 !== 0 && b3 === 0) return 'utf-16le';
  if (b0 === 0 && b1 !== 0 && b2 === 0 && b3 !== 0) return 'utf-16be';
  return null;
}
