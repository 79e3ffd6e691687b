// Words of the Over Time charts, DOM-free (unit-tested in Node): what stands in for the
// charts when there is nothing to draw, and why the request rate has no value where it
// has none (a rate over less of the log than a rate needs, or no request with a time),
// so that a gap is never read as 0/s; which source each gauge came from, and why two
// sources of the same gauge differ.
import type { GaugeSeries, OverTimeResult, OverTimeSeries } from '../../../server/protocol';
import { MIN_RATE_SPAN_MS } from '../../../server/shared';
import { formatLogClock } from '../../shared/format';
import { stageLabel } from '../../shared/labels';

/** Instead of the charts and their controls: null when there is something to draw. */
export function overTimeEmptyText(
  series: OverTimeSeries | null,
  excludeCold: boolean,
  boot?: number,
  server?: string,
): string | null {
  if (series === null) return 'Loading…';
  if (series.times.length > 0) return null;
  // A server's requests may span several boots, each with its cold request.
  if (server !== undefined)
    return `Nothing to chart over time: no request of server ${server}${boot === undefined ? '' : ` in boot ${boot}`}${excludeCold ? ' other than the cold ones' : ''} has a log time.`;
  if (boot !== undefined)
    return `Nothing to chart over time: no request of boot ${boot}${excludeCold ? ' other than its cold one' : ''} has a log time.`;
  return excludeCold
    ? 'Nothing to chart over time: no request other than the cold ones has a log time.'
    : "Nothing to chart over time: no request in this session has a log time yet. The rolling percentiles, the request rate and the engines' load appear here as requests finish.";
}

/**
 * The metrics the percentiles picker offers: those some request in scope measured (a boot of
 * another pipeline has other stages); none when no request measured one (the picker is not shown).
 */
export function metricChoices(series: OverTimeSeries): readonly string[] {
  return series.series.filter((s) => s.count.some((n) => n > 0)).map((s) => s.metric);
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

/** The short name of a gauge's source, appended to its legend label. */
export const GAUGE_SOURCE_TAG: Readonly<Record<GaugeSeries['source'], string>> = {
  log: 'log',
  metrics: '/metrics',
  prometheus: 'Prometheus',
};

/** What a gauge's source samples, for its legend item's hover text. */
export const GAUGE_SOURCE_TEXT: Readonly<Record<GaugeSeries['source'], string>> = {
  log: "from the server log's periodic Engine NNN: lines: running, waiting and KV cache usage as they stood when the line was printed (every VLLM_LOG_STATS_INTERVAL, 10 s by default)",
  metrics: "from the /metrics scrapes: the engine's gauges as they stood at each scrape",
  prometheus: "from the Prometheus server's query_range: the gauges as it scraped them",
};

/**
 * Why the same gauge of one stage and replica shows as two lines when the session has two
 * sources of it; null with one source. Both are kept: neither is the better reading (the log
 * covers all of the log, the scrapes only the time they ran, perhaps more often).
 */
export function gaugeSourcesNote(gauges: readonly GaugeSeries[]): string | null {
  const sources = [...new Set(gauges.map((g) => g.source))];
  if (sources.length < 2) return null;
  const named = sources.map((s) => `(${GAUGE_SOURCE_TAG[s]}) ${GAUGE_SOURCE_TEXT[s]}`).join('; ');
  return `Running, waiting and KV cache usage come from ${sources.length} sources, drawn apart and named in the legend: ${named}. Each is a reading at its own instants, not an average, and each step shows a source's last reading in it, so the lines of one stage and replica differ where the load changed between those instants. Neither is hidden: the log covers all of the log, the scrapes only the time they ran.`;
}

/**
 * What the gauges are of, after the requests' scope: the server, boot and window they were cut to,
 * and that leaving cold requests out cuts none (the engines' load is no request's). null when
 * nothing is charted of them or nothing needs saying (every reading, every request).
 */
export function gaugeScopeText(result: OverTimeResult): string | null {
  if (result.series.gauges.length === 0) return null;
  const cold = result.scope?.excludeCold === true;
  const g = result.gaugeScope;
  if (g === null)
    return cold
      ? "Running, waiting and KV cache usage: every reading, cold left out or not (they are the engines' load, not a request's)."
      : null;
  const parts: string[] = [];
  if (g.server !== undefined)
    parts.push(
      g.boot === undefined ? `server ${g.server}'s readings` : `server ${g.server}'s readings of boot ${g.boot}`,
    );
  else if (g.boot !== undefined) parts.push(`boot ${g.boot}'s readings`);
  const from = g.fromMs === undefined ? null : formatLogClock(g.fromMs, false);
  const to = g.toMs === undefined ? null : formatLogClock(g.toMs, false);
  if (from !== null && to !== null) parts.push(`within ${from}–${to}`);
  else if (from !== null) parts.push(`from ${from}`);
  else if (to !== null) parts.push(`until ${to}`);
  const coldNote = cold ? ", cold left out or not (they are the engines' load, not a request's)" : '';
  return `Running, waiting and KV cache usage: ${parts.join(' ')} only${coldNote}.`;
}

/**
 * `stage 0 · talker replica 0 (log)`: a session can hold the same gauge from the log and from
 * /metrics; in a log that merges several servers', each server's engines apart (`pod/vllm-0/vllm: …`).
 */
export function gaugeName(g: GaugeSeries, names: Readonly<Record<string, string>>): string {
  const stage = g.stage === null ? (g.engine ?? 'engine') : stageLabel(g.stage, names);
  const name = `${g.replica === null ? stage : `${stage} replica ${g.replica}`} (${GAUGE_SOURCE_TAG[g.source]})`;
  return g.server === undefined ? name : `${g.server}: ${name}`;
}
