// The Compare panel's title and its two run lines, without the DOM (unit-tested in Node).
// A name breaks only between its words and after a path separator, never inside a file name;
// a word too long for a narrow panel's line is cut in its middle (both ends of a file name say
// the most), the whole name on hover. "imported" is said of a run only when the other run is
// not imported too. A run's time is its log's own (first and last request), never a session's
// import time, which would make a baseline imported later look newer than its candidate. A run
// of which one server boot is compared says it after its name: "server.log (boot 2)".
import type { CompareRunName, ComparisonReport } from '../../server/protocol';
import { LOG_SPAN_TITLE, logSpanText, shownRunName } from '../../server/shared';
import { runFacts } from './model';

/** Characters of a word kept whole: about 400 px of the title's font, so it fits a 600 px panel. */
export const WORD_MAX = 48;

export interface NamePiece {
  readonly text: string;
  /** A space before it: the next word. Otherwise it goes on with the word after a path separator. */
  readonly spaceBefore: boolean;
  /** Cut in its middle (`…`): the whole name is the hover. */
  readonly cut: boolean;
}

export interface RunFact {
  readonly text: string;
  readonly title: string | null;
}

export interface RunLine {
  readonly name: string;
  /** Each piece stays on one line; the line may break between pieces. */
  readonly pieces: readonly NamePiece[];
  readonly hover: string;
  readonly facts: readonly RunFact[];
}

export interface CompareHeading {
  /** The title as read ("Stage Lens: a.log → b.log"). */
  readonly title: string;
  readonly baseline: RunLine;
  readonly candidate: RunLine;
}

/** `text` at most `max` characters: its start and its end around `…`. */
export function middleCut(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const keep = max - 1;
  const head = Math.ceil(keep / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (keep - head)).join('')}`;
}

/** A long word split after each `/` or `\` (a path breaks there), each part cut when still too long. */
function wordPieces(word: string, max: number): NamePiece[] {
  const parts: string[] = [];
  if (word.length <= max) parts.push(word);
  else {
    let start = 0;
    for (let i = 0; i < word.length; i++) {
      const sep = word[i] === '/' || word[i] === '\\';
      const nextSep = word[i + 1] === '/' || word[i + 1] === '\\';
      if ((sep && !nextSep) || i === word.length - 1) {
        parts.push(word.slice(start, i + 1));
        start = i + 1;
      }
    }
  }
  return parts.map((p, i) => {
    const text = middleCut(p, max);
    return { text, spaceBefore: i === 0, cut: text !== p };
  });
}

export function namePieces(name: string, max = WORD_MAX): NamePiece[] {
  return name
    .split(/\s+/)
    .filter((w) => w !== '')
    .flatMap((w) => wordPieces(w, max));
}

function runLine(run: CompareRunName, other: CompareRunName, side: ComparisonReport['baseline'] | null): RunLine {
  const facts: RunFact[] = [];
  if (run.imported && !other.imported) facts.push({ text: 'imported', title: 'A log imported as a session' });
  if (side !== null) {
    for (const text of runFacts(side)) facts.push({ text, title: null });
    if (side.logSpan !== undefined && side.logSpan !== null)
      facts.push({ text: `logged ${logSpanText(side.logSpan)}`, title: LOG_SPAN_TITLE });
  }
  const name = shownRunName(run);
  return {
    name,
    pieces: namePieces(name),
    hover: run.detail === run.name ? name : `${name}\n${run.detail}`,
    facts,
  };
}

/** The header of a comparison; `report` null while it loads (names only). */
export function compareHeading(
  runs: { readonly baseline: CompareRunName; readonly candidate: CompareRunName },
  report: ComparisonReport | null,
): CompareHeading {
  const baseline = runLine(runs.baseline, runs.candidate, report?.baseline ?? null);
  const candidate = runLine(runs.candidate, runs.baseline, report?.candidate ?? null);
  const text = (l: RunLine): string => l.pieces.map((p, i) => (i > 0 && p.spaceBefore ? ' ' : '') + p.text).join('');
  return { title: `Stage Lens: ${text(baseline)} → ${text(candidate)}`, baseline, candidate };
}
