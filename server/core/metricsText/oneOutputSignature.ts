// Detects, from one /metrics scrape, a stage that emits one output per request
// (docs/formats.md#numbers-that-lie-in-known-ways, "one output"): under Model Runner V2 +
// async chunk a non-final autoregressive stage (the Qwen3-TTS talker) hands its output on
// when it stops, so vLLM records its first token at the end: its prefill histogram then
// covers every decode step, and its decode and time-per-output-token histograms hold 0s.
// The log side detects the same from the per-request fields (analysis/oneOutputStage.ts).
//
// Per series (stage, replica) all of:
//   prefill   observations (requests finished with a prefill time)
//   decode    as many observations, all 0: `_sum` 0, or every one in the lowest bucket
//   ITL       the series is exposed with no observation (one output: no inter-token time)
// A stage whose ITL series is absent is not reported: absent means not measured.
import { replicaIdOf, stageIdOf } from './labels';
import type { HistogramSeries, Labels, ParsedExposition } from './model';
import { DECODE_FAMILY, itlSeries, PREFILL_FAMILY, REQUEST_TPOT_FAMILY, seriesByLabels } from './stageSeries';

export interface OneOutputStage {
  /** Labels of the stage's series (model_name, stage, replica). */
  readonly labels: Labels;
  readonly stageId: number | null;
  readonly replicaId: number | null;
  /** Requests with a prefill observation (each one prefill+decode). */
  readonly prefillCount: number;
  readonly message: string;
}

const PREFILL = PREFILL_FAMILY;
const DECODE = DECODE_FAMILY;
const REQUEST_TPOT = REQUEST_TPOT_FAMILY;

/** The families whose series on a one-output stage do not mean what their names say. */
export const ONE_OUTPUT_FAMILIES: ReadonlySet<string> = new Set([PREFILL, DECODE, REQUEST_TPOT]);

/** Every observation is 0: a zero sum, or all of them in the lowest bucket. */
function allZero(series: HistogramSeries, count: number): boolean {
  if (series.sum === 0) return true;
  const first = series.buckets[0];
  return first !== undefined && first.cumulative === count;
}

/** Stages whose histograms show the one-output signature; see the file comment. */
/** Why a one-output stage's series mislead (`where`: "Stage 0"), with its `count` prefill times: a scrape's and a Prometheus row's words. */
export function oneOutputMessage(where: string, count: number): string {
  return (
    `${where} emitted one output per request (Model Runner V2 + async chunk): ${count} prefill times, ` +
    'every decode time 0 and no inter-token latency. Its prefill time runs to that one output, so it covers the decode steps ' +
    '(read it as prefill+decode), and its decode and time per output token are not measurements.'
  );
}

export function findOneOutputStages(exposition: ParsedExposition): OneOutputStage[] {
  const prefill = seriesByLabels(exposition, PREFILL);
  const decode = seriesByLabels(exposition, DECODE);
  const itl = itlSeries(exposition);
  const out: OneOutputStage[] = [];
  for (const [key, prefillSeries] of prefill) {
    const count = prefillSeries.count;
    const decodeSeries = decode.get(key);
    const itlCount = itl.get(key)?.count;
    if (count === null || count <= 0 || itlCount !== 0) continue;
    if (decodeSeries === undefined || decodeSeries.count !== count || !allZero(decodeSeries, count)) continue;
    const stageId = stageIdOf(prefillSeries.labels);
    const where = stageId === null ? 'A stage' : `Stage ${stageId}`;
    out.push({
      labels: prefillSeries.labels,
      stageId,
      replicaId: replicaIdOf(prefillSeries.labels),
      prefillCount: count,
      message: oneOutputMessage(where, count),
    });
  }
  return out;
}
