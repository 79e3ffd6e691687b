// Bidirectional control characters (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) reorder the text
// around them when shown: a key or value from a file then reads as something else. Where such
// text is shown as a name (a hover, a diagnostic), each becomes a visible `\u202E` escape.
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `a\u202Eb` for a string holding U+202E between a and b; text without them unchanged. */
export function withVisibleBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
