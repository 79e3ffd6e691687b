// Binary data given as a log (random bytes, an image, a core dump) parses as a few garbled
// lines and no records: said once, from its first bytes, instead of "no stats tables found".
// Not counted against text: NUL bytes (the hole a copytruncate rotation leaves, UTF-16's
// high bytes) and the controls a captured terminal log holds (tab, LF, VT, FF, CR, ESC).

/** Bytes looked at: a log's first lines. */
export const BINARY_HEAD_BYTES = 4096;

/** Random bytes score about 0.55 (controls and malformed UTF-8); a log with stray bytes far below. */
const BINARY_SHARE = 0.3;

function isTextControl(b: number): boolean {
  return b === 0x09 || b === 0x0a || b === 0x0b || b === 0x0c || b === 0x0d || b === 0x1b;
}

/** Length of the UTF-8 sequence a lead byte starts (0: not a lead byte). */
function sequenceLength(b: number): number {
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

/** Whether the input's first bytes are binary data, not text (UTF-8, or ASCII in UTF-16). */
export function looksBinary(head: ArrayLike<number>): boolean {
  let counted = 0;
  let binary = 0;
  for (let i = 0; i < head.length;) {
    const b = head[i] as number;
    if (b === 0) {
      i++;
      continue;
    }
    if (b < 0x80) {
      counted++;
      if ((b < 0x20 && !isTextControl(b)) || b === 0x7f) binary++;
      i++;
      continue;
    }
    const n = sequenceLength(b);
    // A sequence cut by the end of the head is not held against it.
    if (n > 0 && i + n > head.length) break;
    let valid = n > 0;
    for (let k = 1; k < n && valid; k++) valid = ((head[i + k] as number) & 0xc0) === 0x80;
    if (valid) {
      counted += n;
      i += n;
    } else {
      counted++;
      binary++;
      i++;
    }
  }
  return counted > 0 && binary / counted > BINARY_SHARE;
}
