// The side panel's /metrics table as data: the last good scrape's per-stage histograms,
// one row per series label set (stage, replica, ...), one column per latency family, each
// cell the family's quantile as PromQL's histogram_quantile gives it. These are bucket
// estimates over everything the server observed, not per-request log values, and every
// cell says so. DOM-free (unit-tested in Node).
import type { HistogramSummary, Percentile } from '../../server/protocol';
import { downstreamQueueCaveat } from '../../server/shared';
import { formatCompact, formatCount, formatWithUnit } from '../shared/format';
import { stageRole } from '../shared/labels';
import { scrapeRequestCount } from '../shared/scrapeRequests';
import type { ValueView } from '../shared/valueState';
import { EMPTY_VIEW, EXPLAIN, STATE_TEXT } from '../shared/valueState';
import type { ColumnGroup, SummaryCell, SummaryColumn, SummaryModel, SummaryRow } from './summaryModel';

interface ScrapeColumn extends SummaryColumn {
  /** Canonical family names, first match wins (older vLLM names last). */
  readonly families: readonly string[];
}

const column = (
  id: string,
  label: string,
  group: ColumnGroup,
  families: readonly string[],
  what: string,
): ScrapeColumn => ({
  id,
  label,
  unit: 'ms',
  group,
  families,
  help: `${what}: ${families[0] ?? ''} from the server's /metrics, histogram_quantile of the last scrape (a bucket estimate over every observation since the server started).`,
});

export const SCRAPE_COLUMNS: readonly ScrapeColumn[] = [
  column('queue', 'queued', 'phase', ['vllm:request_queue_time_seconds'], 'Time waiting in the scheduler queue'),
  column('prefill', 'prefill', 'phase', ['vllm:request_prefill_time_seconds'], 'Prefill time'),
  column('decode', 'decode', 'phase', ['vllm:request_decode_time_seconds'], 'Decode time'),
  column('ttft', 'TTFT', 'total', ['vllm:time_to_first_token_seconds'], 'Stage-local time to first token'),
  column(
    'itl',
    'ITL',
    'token',
    ['vllm:inter_token_latency_seconds', 'vllm:time_per_output_token_seconds'],
    'Inter-token latency',
  ),
  column('gen', 'gen time', 'total', ['vllm_omni:stage_gen_time_s'], 'Stage generation time'),
  column(
    'e2e',
    'e2e',
    'total',
    ['vllm:e2e_request_latency_seconds'],
    "End-to-end latency as this stage's engine saw it",
  ),
];

const FAMILIES: ReadonlySet<string> = new Set(SCRAPE_COLUMNS.flatMap((c) => c.families));

const isSeconds = (family: string): boolean => family.endsWith('_seconds') || family.endsWith('_s');

/** A series' labels as the row key: every label but the few that never tell stages apart. */
function rowKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.keys(labels)
      .sort()
      .filter((k) => k !== 'le')
      .map((k) => [k, labels[k]]),
  );
}

function describeLabels(labels: Readonly<Record<string, string>>): string {
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`);
  return parts.length === 0 ? '' : `{${parts.join(', ')}}`;
}

/** One cell: the quantile of one series, or why there is none. Exported for tests. */
export function scrapeCellView(series: HistogramSummary | undefined, family: string, pct: Percentile): ValueView {
  if (series === undefined)
    return { ...EMPTY_VIEW, title: `${family}: not exposed for this stage in the last scrape (not measured).` };
  const name = `${series.exposedName ?? series.family}${describeLabels(series.labels)}`;
  const n = series.count === null ? 'an unknown number of' : formatCount(series.count);
  const caveat = series.caveat ?? null;
  const noSamples = `${name}: 0 observations in the last scrape, so there is no ${pct} (not 0 ms).`;
  // A downstream queue time misleads once it has samples; with none it is no sample, as every
  // other series before the first request, not a series the server fails to record.
  if (caveat !== null && series.count === 0 && caveat === downstreamQueueCaveat(series.labels))
    return { text: 'no samples', state: 'notMeasured', title: `${noSamples} ${caveat}`, value: null };
  if (caveat !== null) {
    // A series the scrape was cut in is unknown, not wrong.
    const text = series.cut === true ? 'cut short' : series.count === 0 ? 'not recorded' : 'not usable';
    return { text, state: 'notRecorded', title: `${name}: ${caveat}`, value: null };
  }
  if (series.count === 0) return { text: 'no samples', state: 'notMeasured', title: noSamples, value: null };
  const raw = series[pct];
  if (raw === null) {
    return {
      text: STATE_NONE,
      state: 'hidden',
      title: `${name}: no ${pct}: the series has no buckets to take a quantile of (${n} observations).`,
      value: null,
    };
  }
  const unit = isSeconds(series.family) ? 'ms' : '';
  const scale = unit === 'ms' ? 1000 : 1;
  const value = raw * scale;
  // A bound is shown as one: "≤ 300" for a rank in the lowest bucket, "≥ 80,000" in +Inf.
  const bound =
    series.bounds?.[pct] ??
    ((series.openEnded ?? []).includes(pct) ? { kind: 'atLeast' as const, le: raw } : undefined);
  const estimate = `histogram_quantile over ${n} observations of the last /metrics scrape: linear within a bucket, an estimate, not a per-request value`;
  if (bound !== undefined && bound.kind === 'atMost') {
    const le = bound.le * scale;
    const title = `${name} ${pct}: at most ${formatWithUnit(le, unit)}: every observation up to this rank fell into the lowest bucket (le=${bound.le}), where PromQL interpolates from 0, so its ${formatWithUnit(value, unit)} would read as a measurement. Only the bound is known (${estimate}).`;
    return { text: `≤${formatCompact(le)}`, state: 'measured', title, value: le };
  }
  const title =
    bound !== undefined
      ? `${name} ${pct}: at least ${formatWithUnit(value, unit)}: the rank fell into the +Inf bucket, so PromQL returns the highest finite bucket bound (${estimate}).`
      : `${name} ${pct}: ${formatWithUnit(value, unit)} (${estimate}).`;
  return { text: `${bound !== undefined ? '≥' : ''}${formatCompact(value)}`, state: 'measured', title, value };
}

const STATE_NONE = '—';

function stageIdOf(labels: Readonly<Record<string, string>>): number | null {
  const s = labels['stage'];
  return s !== undefined && /^\d+$/.test(s) ? Number(s) : null;
}

/**
 * A prefill or decode cell of a stage whose log shows one output per request (the finding
 * prefill-covers-decode): the same engine timestamps feed these histograms, so the
 * prefill histogram covers the decode steps too and the decode histogram holds zeros.
 */
function oneOutputScrapeView(view: ValueView, columnId: string, stage: string): ValueView {
  const why = `From the log: stage ${stage} emits one output per request (finding prefill-covers-decode). ${EXPLAIN.oneOutput}`;
  if (columnId === 'decode')
    return { text: STATE_TEXT.covered, state: 'covered', title: `${view.title} ${why}`, value: null };
  if (columnId === 'prefill' && view.value !== null && view.state === 'measured')
    return { ...view, text: `${view.text} +decode`, state: 'combined', title: `${view.title} ${why}` };
  return view;
}

/**
 * Rows per series label set, in stage then replica order; columns only for families some
 * row has. `oneOutputStages`: values of the `stage` label whose log shows one output per
 * request (their prefill covers decode).
 */
export function scrapeModel(
  histograms: readonly HistogramSummary[],
  pct: Percentile,
  stageNames: Readonly<Record<string, string>>,
  oneOutputStages: ReadonlySet<string> = new Set(),
): SummaryModel {
  const rows = new Map<string, { labels: Readonly<Record<string, string>>; series: Map<string, HistogramSummary> }>();
  for (const h of histograms) {
    if (!FAMILIES.has(h.family)) continue;
    const key = rowKey(h.labels);
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = { labels: h.labels, series: new Map() }));
    row.series.set(h.family, h);
  }
  const familyOf = (c: ScrapeColumn, series: Map<string, HistogramSummary>): string =>
    c.families.find((f) => series.has(f)) ?? (c.families[0] as string);
  const columns = SCRAPE_COLUMNS.filter((c) => [...rows.values()].some((r) => c.families.some((f) => r.series.has(f))));
  const ordered = [...rows.values()].sort((a, b) => {
    const sa = stageIdOf(a.labels) ?? Infinity;
    const sb = stageIdOf(b.labels) ?? Infinity;
    if (sa !== sb) return sa < sb ? -1 : 1;
    return rowKey(a.labels) < rowKey(b.labels) ? -1 : 1;
  });
  const views = ordered.map((r) => {
    const stage = r.labels['stage'];
    const oneOutput = stage !== undefined && oneOutputStages.has(stage);
    return {
      r,
      views: columns.map((c) => {
        const view = scrapeCellView(r.series.get(familyOf(c, r.series)), familyOf(c, r.series), pct);
        return oneOutput ? oneOutputScrapeView(view, c.id, stage) : view;
      }),
    };
  });
  const groupMax = new Map<ColumnGroup, number>();
  for (const { views: vs } of views) {
    vs.forEach((v, i) => {
      const g = (columns[i] as ScrapeColumn).group;
      if (v.value !== null && v.value > 0) groupMax.set(g, Math.max(groupMax.get(g) ?? 0, v.value));
    });
  }
  const out = views.map(({ r, views: vs }): SummaryRow => {
    const cells: Record<string, SummaryCell> = {};
    vs.forEach((v, i) => {
      const c = columns[i] as ScrapeColumn;
      const max = groupMax.get(c.group) ?? 0;
      cells[c.id] = {
        ...v,
        ratio: v.value === null || max <= 0 ? 0 : Math.max(0, Math.min(1, v.value / max)),
        hot: false,
      };
    });
    const stage = r.labels['stage'];
    const replica = r.labels['replica'];
    const counted = scrapeRequestCount(r.series);
    return {
      key: rowKey(r.labels),
      label:
        stage === undefined
          ? 'all stages'
          : replica === undefined
            ? `stage ${stage}`
            : `stage ${stage} · replica ${replica}`,
      role: stage === undefined ? '' : stageRole(stage, stageNames),
      // Every scrape row is its own series (no stage row above it to indent under).
      replica: null,
      requestCount: counted?.count ?? null,
      countSource: counted?.family ?? null,
      stageId: stageIdOf(r.labels),
      cells,
    };
  });
  return { columns, rows: out };
}
