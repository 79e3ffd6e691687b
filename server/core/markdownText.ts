// Text from a file or a log placed in Markdown: a compare report (GitHub, a PR comment) and the
// deploy YAML's hovers (VS Code renders them, remote images and links included). A name that
// holds `![x](https://…)` or a backtick must stay text there: no image fetched, no link, no code
// span left open to turn what follows into markup.

/**
 * Text Markdown shows as written, never as a link, an image, HTML or a code span: entities for
 * <, >, &; a backslash before \ ` * [ ]; on one line. (`_` inside a word is no markup.)
 */
export function inertMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*[\]])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

/** inertMarkdown, and the rest of the punctuation GitHub reads as markup inline or in a table cell: | _ ~. */
export function escapeMarkdown(text: string): string {
  return inertMarkdown(text).replace(/([_|~])/g, '\\$1');
}

/**
 * `text` as one inline code span, whatever it holds: fenced by one backtick more than its longest
 * run of them (padded with a space where it starts or ends with one, which CommonMark strips), on
 * one line (a blank line inside would end the paragraph and the span with it).
 */
export function markdownCode(text: string): string {
  const oneLine = text.replace(/\r\n|\r|\n/g, ' ');
  let longest = 0;
  for (const run of oneLine.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}
