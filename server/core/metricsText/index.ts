// What a /metrics body says (the Prometheus text exposition a server serves): parse it, take
// PromQL-exact quantiles, and read the per-stage latency histograms; scrapeSummary.ts is the
// per-series summary the CLI and sessions report. Talking to a Prometheus server is
// prometheusQuery/. Pure: no I/O, no editor APIs.
export type * from './model';
export { parseExposition } from './exposition';
export { histogramQuantile } from './histogramQuantile';
export { canonicalMetricName, findFamily, isSecondsMetric, LEGACY_OMNI_PREFIX, OMNI_PREFIX } from './metricNames';
export { labelsKey, replicaIdOf, stageIdOf } from './labels';
export {
  STAGE_LATENCY_HISTOGRAMS,
  stageHistogramRows,
  summarizeHistogramSeries,
  type MillisecondFigures,
  type StageHistogramRow,
} from './stageHistograms';
export {
  findCodecTtftSignature,
  type CodecTtftClue,
  type CodecTtftClueCode,
  type CodecTtftSuspect,
} from './codecTtftSignature';
export {
  DIFFUSION_PREPROCESS_FAMILY,
  diffusionPreprocessFirstBuckets,
  type PreprocessFirstBucket,
} from './preprocessZeros';
