// Texts made to sit inside a sentence ("slowest phase", "stage 1 · code2wav", a reason) also
// start one: the same words with a capital first letter.

/** `text` with its first character upper-cased: "stage 1 · code2wav" -> "Stage 1 · code2wav". */
export function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
