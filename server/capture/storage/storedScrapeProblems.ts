// The shape check of a stored scrape-problems.json: the malformed lines an endpoint's scrapes
// listed among the session's parse problems (scrapeProblemLedger.ts), so that a reopened session
// lists them again, as its live capture did. An entry of any other shape is dropped.
import type { ParseProblem } from '../../core/records';

const isLine = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;

/** The well-formed problems of a parsed scrape-problems.json, in order. */
export function scrapeProblemsFromJson(raw: unknown): ParseProblem[] {
  if (!Array.isArray(raw)) return [];
  const out: ParseProblem[] = [];
  for (const v of raw as unknown[]) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const { line, message } = v as Record<string, unknown>;
    if (isLine(line) && typeof message === 'string') out.push({ line, message });
  }
  return out;
}
