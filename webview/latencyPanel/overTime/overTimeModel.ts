// Words of the Over Time charts, DOM-free (unit-tested in Node): what stands in for the
// charts when there is nothing to draw, and why the request rate has no value where it
// has none (a rate over less of the log than a rate needs, or no request with a time),
// so that a gap is never read as 0/s.
import type { OverTimeSeries } from '../../../server/protocol';
import { MIN_RATE_SPAN_MS } from '../../../server/shared';

/** Instead of the charts and their controls: null when there is something to draw. */
export function overTimeEmptyText(series: OverTimeSeries | null, excludeCold: boolean): string | null {
  if (series === null) return 'Loading…';
  if (series.times.length > 0) return null;
  return excludeCold
    ? 'Nothing to chart over time: no request other than the cold ones has a log time.'
    : "Nothing to chart over time: no request in this session has a log time yet. The rolling percentiles, the request rate and the engines' load appear here as requests finish.";
}

/** The metrics the percentiles picker offers: none when no request measured a target (the picker is not shown). */
export function metricChoices(series: OverTimeSeries): readonly string[] {
  return series.series.map((s) => s.metric);
}

/** Why some or all steps have no request rate; null when every step has one. */
export function rateNote(series: OverTimeSeries): string | null {
  const missing = series.requestRate.filter((r) => r === null).length;
  if (missing === 0 || series.times.length === 0) return null;
  const noRequests = series.series.every((s) => s.count.every((n) => n === 0));
  if (missing === series.requestRate.length && noRequests)
    return "Requests per second: not measured, no request in view has a log time (the load shown is the engines' own).";
  const tooShort = 'too short for a rate on a clock printed to the second';
  const under = `under ${MIN_RATE_SPAN_MS / 1000} s`;
  return missing === series.requestRate.length
    ? `Requests per second: not shown, the log covers ${under}, ${tooShort}.`
    : `Requests per second: no value where a step covers ${under} of the log, ${tooShort}.`;
}
