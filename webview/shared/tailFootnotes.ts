// Why a part of the p99 excess is not measured, as numbered footnotes: a mark on each row
// it explains and the reason, each once, under the parts, so it is read without a hover.
// The Tail tab of Latency Details and the side panel's "Why p99 is slow" draw it alike,
// from the one text of tailModel's notMeasuredRows.
import { h } from './dom';
import type { NotMeasuredRow } from './tailModel';

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** A footnote's mark, `¹`, `²`, … `¹⁰`: a number, not a symbol the panels use for something else (`†`). */
export function noteMark(n: number): string {
  return [...String(n)].map((d) => SUPERSCRIPT[Number(d)] ?? d).join('');
}

export interface TailFootnotes {
  /** The number of the note that explains `row`. */
  numberOf(row: NotMeasuredRow): number;
  /** The notes, in order; null when no part is not measured. */
  readonly list: HTMLUListElement | null;
}

export function tailFootnotes(rows: readonly NotMeasuredRow[]): TailFootnotes {
  const reasons = [...new Set(rows.map((r) => r.note))];
  return {
    numberOf: (row) => reasons.indexOf(row.note) + 1,
    list:
      reasons.length === 0
        ? null
        : h(
            'ul',
            { className: 'tail-footnotes', testId: 'tail-not-measured-notes', attrs: { 'aria-label': 'Notes' } },
            reasons.map((text, i) =>
              h(
                'li',
                {},
                h('span', { className: 'note-mark', text: noteMark(i + 1), attrs: { 'aria-hidden': 'true' } }),
                h('span', { className: 'sr-only', text: `Note ${i + 1}: ` }),
                text,
              ),
            ),
          ),
  };
}

/** Note `n`'s mark after a row's "not measured": drawn, and read out as "see note n below". */
export function noteReference(n: number): HTMLSpanElement[] {
  return [
    h('span', { className: 'note-mark', text: noteMark(n), attrs: { 'aria-hidden': 'true' } }),
    h('span', { className: 'sr-only', text: ` (see note ${n} below)` }),
  ];
}
