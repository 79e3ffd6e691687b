// Detects, from one /metrics scrape, the stats bug of builds without the codec TTFT fix
// (docs/formats.md#numbers-that-lie-in-known-ways, the codec TTFT signature). With talker first audio,
// the codec stage's first real output is recorded as a decode step, so its vLLM
// histograms get: no TTFT sample, an ITL measured from a last-token time of 0, a
// negative prefill time and a decode time measured from a first-token time of 0.
//
// vLLM's engine-core timestamps are `time.monotonic()` seconds, so "measured from 0"
// means about the host's monotonic clock (on Linux: seconds since boot), not Unix time.
// That makes the size of the wrong values host-dependent; the tests below therefore
// rely on impossibilities, not on magnitudes:
//
//   required   TTFT series exposed with count 0 while the ITL series of the same labels
//              has count > 0. An ITL needs an earlier token of the same request, and that
//              token is always recorded as a TTFT on a correct build.
//   clues      (each alone is not conclusive; old vLLM also gives a negative prefill for
//              a request aborted after scheduling but before its first token)
//     itl-beyond-buckets       ITL observations above the highest finite ITL bucket
//                              (80 s): one per request when measured from 0.
//     negative-prefill-sum     prefill `_sum` < 0; a real prefill is never negative.
//     decode-exceeds-inference decode `_sum` > inference `_sum`; per request decode is
//                              part of inference (scheduled -> last token).
//
// A stage whose TTFT series is absent is not reported: absent means not measured.
import { replicaIdOf, stageIdOf } from './labels';
import type { HistogramSeries, Labels, ParsedExposition } from './model';
import { nonFiniteSampleText } from './sampleLine';
import type { FamilyRead } from './scrapeCut';
import {
  DECODE_FAMILY,
  ITL_FAMILIES,
  itlSeries,
  PREFILL_FAMILY,
  REQUEST_TPOT_FAMILY,
  seriesByLabels,
  TTFT_FAMILY,
} from './stageSeries';

export type CodecTtftClueCode = 'itl-beyond-buckets' | 'negative-prefill-sum' | 'decode-exceeds-inference';

export interface CodecTtftClue {
  readonly code: CodecTtftClueCode;
  /** The number behind the clue: an observation count, or a sum in seconds. */
  readonly value: number;
  readonly message: string;
}

export interface CodecTtftSuspect {
  /** Labels of the stage's series (model_name, stage, replica, ...). */
  readonly labels: Labels;
  readonly stageId: number | null;
  readonly replicaId: number | null;
  readonly itlCount: number;
  readonly decodeCount: number | null;
  readonly clues: readonly CodecTtftClue[];
  /** At least one clue besides the required TTFT/ITL mismatch: report it as the bug. */
  readonly corroborated: boolean;
  readonly message: string;
}

const TTFT = TTFT_FAMILY;
const ITL = ITL_FAMILIES;
const PREFILL = PREFILL_FAMILY;
const DECODE = DECODE_FAMILY;
const INFERENCE = 'vllm:request_inference_time_seconds';
/** Below this, decode vs inference sums are treated as equal (float sums of seconds). */
const SUM_TOLERANCE_S = 1e-6;

const REQUEST_TPOT = REQUEST_TPOT_FAMILY;

/** The families whose series on an affected stage the codec TTFT bug makes unusable (a scrape, a Prometheus query, a comparison). */
export const CODEC_TTFT_FAMILIES: ReadonlySet<string> = new Set([TTFT, ...ITL, PREFILL, DECODE, REQUEST_TPOT]);

/**
 * The families the signature is read from, series by series: a stage's TTFT and its inter-token
 * latency, under the first of its names the scrape has (the clues only corroborate).
 */
export const CODEC_TTFT_SIGNATURE_READS: readonly FamilyRead[] = [
  { names: [TTFT], perSeries: true },
  { names: ITL, firstOf: true, perSeries: true },
];

/** Observations above the highest finite bound, or 0 when the buckets cannot say. */
function beyondFiniteBuckets(series: HistogramSeries): { count: number; bound: number } {
  const finite = series.buckets.filter((bucket) => Number.isFinite(bucket.le));
  const last = finite[finite.length - 1];
  if (last === undefined || series.count === null) return { count: 0, bound: NaN };
  return { count: Math.max(0, series.count - last.cumulative), bound: last.le };
}

function cluesFor(
  itl: HistogramSeries,
  prefill: HistogramSeries | undefined,
  decode: HistogramSeries | undefined,
  inference: HistogramSeries | undefined,
): CodecTtftClue[] {
  const clues: CodecTtftClue[] = [];
  const beyond = beyondFiniteBuckets(itl);
  if (beyond.count > 0) {
    clues.push({
      code: 'itl-beyond-buckets',
      value: beyond.count,
      message: `${beyond.count} inter-token latencies above ${beyond.bound} s: an ITL measured from a last-token time of 0 is about the engine's monotonic clock`,
    });
  }
  if (prefill?.sum !== undefined && prefill.sum !== null && prefill.sum < 0) {
    clues.push({
      code: 'negative-prefill-sum',
      value: prefill.sum,
      message: `prefill time sum is negative (${prefill.sum} s): a prefill measured to a first-token time of 0`,
    });
  }
  const decodeSum = decode?.sum ?? null;
  const inferenceSum = inference?.sum ?? null;
  if (decodeSum !== null && inferenceSum !== null && decodeSum - inferenceSum > SUM_TOLERANCE_S) {
    clues.push({
      code: 'decode-exceeds-inference',
      value: decodeSum - inferenceSum,
      message: `decode time sum (${decodeSum} s) exceeds inference time sum (${inferenceSum} s): a decode measured from a first-token time of 0`,
    });
  }
  return clues;
}

/** Stages whose histograms show the codec TTFT signature; see the file comment. */
export function findCodecTtftSignature(exposition: ParsedExposition): CodecTtftSuspect[] {
  const ttft = seriesByLabels(exposition, TTFT);
  const itl = itlSeries(exposition);
  const prefill = seriesByLabels(exposition, PREFILL);
  const decode = seriesByLabels(exposition, DECODE);
  const inference = seriesByLabels(exposition, INFERENCE);
  const suspects: CodecTtftSuspect[] = [];
  for (const [key, ttftSeries] of ttft) {
    const itlOfStage = itl.get(key);
    if (ttftSeries.count !== 0 || itlOfStage === undefined || itlOfStage.count === null || itlOfStage.count <= 0)
      continue;
    const clues = cluesFor(itlOfStage, prefill.get(key), decode.get(key), inference.get(key));
    const stageId = stageIdOf(ttftSeries.labels);
    const where = stageId === null ? 'a stage' : `stage ${stageId}`;
    suspects.push({
      labels: ttftSeries.labels,
      stageId,
      replicaId: replicaIdOf(ttftSeries.labels),
      itlCount: itlOfStage.count,
      decodeCount: decode.get(key)?.count ?? null,
      clues,
      corroborated: clues.length > 0,
      message:
        `TTFT not recorded on ${where}: no TTFT sample but ${nonFiniteSampleText(itlOfStage.count) ?? itlOfStage.count} inter-token latencies. ` +
        (clues.length > 0
          ? 'This is the codec TTFT bug of builds without the talker-first-audio fix; '
          : 'This looks like the codec TTFT bug of builds without the talker-first-audio fix; ') +
        "this stage's TTFT, prefill, decode and ITL histograms are not usable.",
    });
  }
  return suspects;
}
