// The end-to-end time per token in one set of words for analyze's table and the side panel: its
// row's name, where it comes from, and what was left out of it (a 0.0 is the no-output-token
// default, never 0 ms).
import { countOf } from '../numberText';
import type { TimePerTokenSummary } from './types';
import { UNRECORDED_TEXT, type UnrecordedReason } from './unrecordedValues';

export const TIME_PER_TOKEN_LABEL = 'time per token';
/** Where the values come from (unrecordedValues.ts TIME_PER_TOKEN_FIELDS). */
export const TIME_PER_TOKEN_SOURCE = 'e2e_tpt or e2e_time_per_token_ms as the dicts print it, over measured values';
/** What a 0.0 time per token is (unrecordedValues.ts TIME_PER_TOKEN_FIELDS). */
const NO_OUTPUT =
  "0.0, the server's default for a request with no output token (it divides by the tokens only when there are some), not a time";

/**
 * One sentence per reason a printed time per token was left out: `time per token: 1 of 5
 * requests printed 0.0, …: left out, not counted as 0 ms.`; none when nothing was.
 */
export function timePerTokenLeftOut(t: TimePerTokenSummary | undefined): string[] {
  if (t === undefined) return [];
  const out: string[] = [];
  for (const [reason, n] of Object.entries(t.notRecorded) as [UnrecordedReason, number][])
    if (n > 0)
      out.push(
        `${TIME_PER_TOKEN_LABEL}: ${n} of ${countOf(t.requests, 'request')} printed ${reason === 'noOutput' ? NO_OUTPUT : UNRECORDED_TEXT[reason]}: left out, not counted as 0 ms.`,
      );
  return out;
}
