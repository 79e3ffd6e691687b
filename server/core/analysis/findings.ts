// Findings: numbers that lie in known ways, and facts a reader must know before
// trusting a percentile. Each has a stable code, a severity, the stage, the request ids
// and one sentence that explains it. Incremental: requests are added as they complete.
import { countOf, durationText, groupedNumber } from '../numberText';
import { oneOutputExample, prefillCoversDecode, PREFILL_DECODE_LABEL, type OneOutputExample } from './oneOutputStage';
import { nonFiniteText, numberOf, toLogPrecision } from '../values';
import { formatMs } from '../textTable';
import { decompressWith, type CompressedFormat } from '../log/compressedInput';
import { hasLegacyDiffusionTimings, producedOutput } from './stageKind';
import { rowUnread } from './stageBuilder';
import { firstStageIdOf } from './crossStage';
import { ttftUpstreamWaitMs } from './ttftUpstreamWait';
import { e2eTableMs } from './endToEnd';
import { isNegativeInterval, measurementOf, unrecordedReason } from './unrecordedValues';
import { SampleSet } from './sampleSet';
import { PREEMPTIONS_FIELD, preemptionCount, preemptionWait, type PreemptionWait } from './preemptions';
import { lacksStageTable, tablesMissingMessage } from './tablesMissing';
import { phaseSplitNotPrinted, phaseSplitNotPrintedMessage } from './phaseSplitNotPrinted';
import { stageLabel } from '../stageRoles';
import { sentenceCase } from '../sentenceCase';
import { gzipDamagedFindingText, scrapeGzipDamagedFindingOf } from '../gzipInput';
import { logRequestsReadText, type RequestsInScope } from './requestScope';
import { RepeatTally } from './requestRepeats';
import type { ParseProblem } from '../records';
import type { AnalyzedRequest, Finding, FindingCode, RequestStage, Severity, StageSummary } from './types';
import { SPLIT_FIELD } from './types';

/**
 * An [Overall Summary] whose wall time exceeds its one request's e2e_total_ms by more than this
 * share (and 1 ms) did not start with that request: offline aggregators share one start.
 */
const SHARED_START_SLACK = 0.05;

/** Printing has 3 decimals, so a sum of two printed values can be off by 0.001; beyond 0.002 is real. */
export const SPLIT_TOLERANCE_MS = 0.002;
/**
 * A downstream queued time below this holds too little of either wait to tell apart: the split
 * itself is only as precise as one scheduler step, and an engine step takes milliseconds.
 */
export const QUEUED_INPUT_WAIT_FLOOR_MS = 1;
/** Fewer preempted requests than this: their median against the stage's tells nothing. */
const MIN_PREEMPTED_COMPARED = 5;
/** Preempted beyond this share of a stage's requests, the stage's median is mostly theirs. */
const MAX_PREEMPTED_SHARE = 0.25;
const STAGE_TIME_FIELD = 'stage_gen_time_ms';

interface Bucket {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly stageId: number | null;
  readonly requestIds: string[];
  /** Extra detail used in the message (e.g. the worst value). */
  worst: number;
  worstRequest: string;
  worstField: string;
}

const fmt = (ms: number): string => groupedNumber(ms, 0, Math.abs(ms) >= 10000 ? 0 : 3);

/** "Stage 1 · code2wav" at the start of a sentence. */
function sentenceStage(stageKey: string, roles: Readonly<Record<string, string>>): string {
  return sentenceCase(stageLabel(stageKey, roles));
}

/** Where the preempted requests of a stage waited to be scheduled again; one phase only where all their fields place it there. */
function preemptionWaitText(waits: ReadonlySet<PreemptionWait> | undefined): string {
  const only = waits?.size === 1 ? [...waits][0] : 'prefillOrDecode';
  switch (only) {
    case 'prefillDecode':
      return 'vllm_prefill_ms, which covers their decode (the stage emits one output)';
    case 'prefill':
      return 'vllm_prefill_ms and vllm_ttft_ms (their vllm_decode_ms is 0: the preemption came before their first token)';
    default:
      return 'vllm_prefill_ms or their vllm_decode_ms (before their first token it is in the prefill and the TTFT, after it in the decode; vllm_num_preemptions counts the preemptions, not when they came)';
  }
}

export class FindingsBuilder {
  /** In order of first hit. */
  private readonly buckets: Bucket[] = [];
  private readonly bucketIndex = new Map<FindingCode, Map<number | null, Bucket>>();
  /** Requests seen per stage id, for "N of M" in messages. */
  private readonly stageRequests = new Map<number | null, number>();
  private readonly coldRequests: AnalyzedRequest[] = [];
  /** Per stage id: stage_gen_time_ms of its preempted requests, set against the stage's median in the message. */
  private readonly preemptedStageTimes = new Map<number | null, SampleSet>();
  /** Per stage id: the phases that held its preempted requests' wait to be scheduled again, as far as their fields tell. */
  private readonly preemptionWaits = new Map<number | null, Set<PreemptionWait>>();
  /** Requests added, for "N of M" where a finding is about requests rather than stages. */
  private requestTotal = 0;
  /** Per stage id, the one-output request with the largest prefill+decode (the message's example). */
  private readonly oneOutputExamples = new Map<number | null, OneOutputExample>();
  private overallSummaries = 0;
  /** Requests whose [OmniTiming] line gives two or more stage times and the engine time. */
  private timedRequests = 0;
  /** Cut-off requests read from a stats dict of the format before February 2026, not from tables. */
  private truncatedDicts = 0;
  /** The input is a compressed file (its first bytes): nothing in it was read. */
  private compressed: CompressedFormat | null = null;
  /** The input's first bytes are binary data, not text. */
  private binary = false;
  /** The input was only this many NUL bytes (ParseProblem.zeroFilledBytes); null when not. */
  private zeroFilledBytes: number | null = null;
  /** The input is a deploy config's YAML, not a log. */
  private deployConfig = false;
  /** The gzip data broke off: where (its sentence), and how much log came before. */
  private gzipDamage: ParseProblem | null = null;
  /** Requests read but left out of this builder (a window, a boot). */
  private leftOutRequests = 0;
  /** What the requests added are of the log's (a window, a boot), in words; null: all of them. */
  private scopeWords: string | null = null;
  /** Boots with a cold request, of the log's every request (a view's left-out ones too). */
  private readonly logColdBoots = new Set<number>();
  /** Requests that print again an earlier request's record (requestRepeats.ts). */
  private readonly repeats = new RepeatTally();
  /** The log has a line at DEBUG (ParseOutput.debugLines): stage-tables-missing then does not say the server ran at INFO. */
  private debugLines = false;
  /** The log's [Overall Summary] tables (StreamAnalysis.overallTables): without DEBUG lines, stage-tables-missing says they were at INFO. */
  private overallTables = 0;
  /** A stats table was printed at DEBUG: stage-tables-missing says the stage tables were cut out, not left unprinted. */
  private statsTablesAtDebug = false;

  /** Whether some request hit `code` so far (no message built). */
  has(code: FindingCode): boolean {
    return this.bucketIndex.has(code);
  }

  /** The log has a line at DEBUG (ParseOutput.debugLines, AnalysisSnapshot.debugLines). */
  debugLinesRead(): void {
    this.debugLines = true;
  }

  /** A stats table of the log was printed at DEBUG (AnalysisSnapshot.statsTablesAtDebug). */
  statsTablesAtDebugRead(): void {
    this.statsTablesAtDebug = true;
  }

  /** The log has `tables` [Overall Summary] tables so far (StreamAnalysis.overallTables). */
  overallTablesRead(tables: number): void {
    this.overallTables = tables;
  }

  /** The parser's problems: one says when the input is a compressed file or binary data. */
  addProblems(problems: readonly ParseProblem[]): void {
    for (const p of problems) {
      if (p.compressed !== undefined) this.compressed = p.compressed;
      if (p.binary === true) this.binary = true;
      if (p.zeroFilledBytes !== undefined) this.zeroFilledBytes = p.zeroFilledBytes;
      if (p.deployConfig === true) this.deployConfig = true;
      if (p.gzipDamaged !== undefined) this.gzipDamage = p;
    }
  }

  /** The preempted requests' sample sets let go of their room for more samples (SampleSet.trim): the input ended. */
  trim(): void {
    for (const times of this.preemptedStageTimes.values()) times.trim();
  }

  /** `excludeCold`: the cold requests added are left out (leaveOut), as out of the percentiles beside them. */
  constructor(private readonly excludeCold = false) {}

  add(request: AnalyzedRequest): void {
    if (request.cold) {
      if (this.excludeCold) return this.leaveOut(request);
      this.coldRequests.push(request);
      this.logColdBoots.add(request.boot);
    }
    if (!request.complete) {
      this.hit('truncated-record', 'info', null, request.requestId);
      if (request.legacyDict === true) this.truncatedDicts += 1;
    }
    this.requestTotal += 1;
    if (this.repeats.add(request)) this.hit('repeated-request-ids', 'warning', null, request.requestId);
    if (lacksStageTable(request)) this.hit('stage-tables-missing', 'info', null, request.requestId);
    if (phaseSplitNotPrinted(request)) this.hit('phase-split-not-printed', 'info', null, request.requestId);
    this.checkOverallSummary(request);
    this.checkStageOverlap(request);
    // Called once per request of a 100k-request log: no arrays built here.
    const firstStageId = firstStageIdOf(request.stages);
    for (const stage of request.stages) {
      this.stageRequests.set(stage.stageId, (this.stageRequests.get(stage.stageId) ?? 0) + 1);
      this.checkStage(request, stage, firstStageId);
      this.checkPreemptions(request, stage);
    }
    // One hit per request, with its most negative duration: the finding counts requests.
    let worst = 0;
    let worstField = '';
    for (const name in request.e2e) {
      const cell = request.e2e[name];
      if (cell.state === 'measured' && isNegativeInterval(name, cell.value) && cell.value < worst) {
        worst = cell.value;
        worstField = `e2e ${name}`;
      }
    }
    for (const edge of request.transfers) {
      for (const name in edge.fields) {
        const cell = edge.fields[name];
        if (cell.state === 'measured' && isNegativeInterval(name, cell.value) && cell.value < worst) {
          worst = cell.value;
          worstField = `transfer ${edge.edge} ${name}`;
        }
      }
    }
    if (worstField !== '') this.hit('negative-interval', 'warning', null, request.requestId, worst, worstField);
  }

  /**
   * The findings so far. `stages` (the current stage summaries) give cold-start comparisons;
   * `roles` (stage id -> "talker") name each stage as the views do.
   */
  findings(
    stages: readonly StageSummary[] = [],
    maxRequestIds = Number.POSITIVE_INFINITY,
    roles: Readonly<Record<string, string>> = {},
  ): Finding[] {
    const out: Finding[] = [];
    for (const b of this.buckets) {
      out.push({
        code: b.code,
        severity: b.severity,
        stageId: b.stageId,
        requestIds: b.requestIds.slice(0, maxRequestIds),
        requestCount: b.requestIds.length,
        message: this.message(b, roles, stages),
      });
    }
    const cold = this.coldFinding(stages, maxRequestIds, roles);
    if (cold !== null) out.push(cold);
    out.push(...this.inputFindings());
    const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
    return out.sort(
      (a, b) =>
        rank[a.severity] - rank[b.severity] || (a.stageId ?? -1) - (b.stageId ?? -1) || (a.code < b.code ? -1 : 1),
    );
  }

  /**
   * What the parser's problems say of the input as a whole (compressed, binary, a deploy config,
   * gzip data that broke off): the log's, so a window of its requests says them too, counting
   * the requests the log gave (left out ones too) and, `within` a view of some of them, how many
   * of them the view holds.
   */
  inputFindings(within: RequestsInScope | null = this.scopeOfRequests()): Finding[] {
    const read = this.requestTotal + this.leftOutRequests;
    const out: Finding[] = [];
    if (this.compressed !== null) out.push(compressedFinding(this.compressed));
    if (this.binary) out.push(binaryFinding(read));
    if (this.zeroFilledBytes !== null) out.push(zeroFilledFinding(this.zeroFilledBytes));
    if (this.deployConfig && read === 0) out.push(DEPLOY_CONFIG_FINDING);
    if (this.gzipDamage !== null) out.push(gzipDamagedFinding(this.gzipDamage, read, within));
    return out;
  }

  /** A request the log gave that a window or a boot left out: the input findings count it, cold-start its boot. */
  leaveOut(request: AnalyzedRequest): void {
    this.leftOutRequests += 1;
    if (request.cold) this.logColdBoots.add(request.boot);
  }

  /**
   * Names what this builder's requests are of the log's (`words`: requestScopeWords), so that the
   * input findings say how many of the log's requests it holds and cold-start how many boots the
   * log has; `coldBoots`: boots of the log's cold requests this builder is not given.
   */
  nameScope(words: string | null, coldBoots: Iterable<number> = []): void {
    this.scopeWords = words;
    for (const boot of coldBoots) this.logColdBoots.add(boot);
  }

  /** The boots of the log's cold requests: those added, those left out, those named with the scope. */
  coldBoots(): ReadonlySet<number> {
    return this.logColdBoots;
  }

  private scopeOfRequests(): RequestsInScope | null {
    return this.scopeWords === null ? null : { words: this.scopeWords, requests: this.requestTotal };
  }

  private checkStage(request: AnalyzedRequest, stage: RequestStage, firstStageId: number): void {
    const id = request.requestId;
    const { values, states } = stage.split;
    // The codec's is a server bug's signature; a diffusion stage's, and that of a stage with no
    // output, the field's default by design.
    // A TTFT printed negative, nan or inf is not recorded for that reason (negative-interval says
    // so); a row a cut-off table never reached, for the reason truncated-record gives.
    if (states.ttftMs === 'notRecorded' && !ttftPrintedOdd(stage) && !rowUnread(request, SPLIT_FIELD.ttftMs)) {
      if (stage.kind === 'diffusion') this.hit('diffusion-ttft-default', 'info', stage.stageId, id);
      else if (!producedOutput(stage.fields)) this.hit('ttft-no-output', 'info', stage.stageId, id);
      else this.hit('ttft-not-recorded', 'warning', stage.stageId, id);
    }

    const q = values.queuedMs;
    const iw = values.inputWaitMs;
    const rq = values.readyQueuedMs;
    if (q !== null && iw !== null && rq !== null) {
      const off = iw + rq - q;
      if (Math.abs(off) > SPLIT_TOLERANCE_MS)
        this.hit(
          'split-mismatch',
          'warning',
          stage.stageId,
          id,
          off,
          'vllm_input_wait_ms + vllm_ready_queued_ms - vllm_queued_ms',
        );
    }

    const downstream = stage.stageId !== null && stage.stageId > firstStageId;
    if (
      downstream &&
      stage.kind === 'llm' &&
      states.queuedMs === 'measured' &&
      // Under a millisecond (0 included) no wait inside it matters: nothing worth telling apart.
      q !== null &&
      q >= QUEUED_INPUT_WAIT_FLOOR_MS &&
      states.inputWaitMs === 'hidden' &&
      states.readyQueuedMs === 'hidden'
    ) {
      this.hit('queued-includes-input-wait', 'info', stage.stageId, id, q ?? 0, 'vllm_queued_ms');
    }

    const waited = ttftUpstreamWaitMs(request, stage, firstStageId);
    if (waited !== null) this.hit('ttft-includes-upstream-wait', 'info', stage.stageId, id, waited, 'vllm_ttft_ms');

    // One hit per request and stage, with its most negative duration.
    let worst = 0;
    let worstField = '';
    for (const name in stage.fields) {
      const cell = stage.fields[name];
      if (cell.state === 'measured' && isNegativeInterval(name, cell.value) && cell.value < worst) {
        worst = cell.value;
        worstField = name;
      }
    }
    if (worstField !== '') this.hit('negative-interval', 'warning', stage.stageId, id, worst, worstField);
    if (stage.kind === 'diffusion' && hasLegacyDiffusionTimings(stage.fields))
      this.hit('diffusion-zero-ambiguous', 'info', stage.stageId, id);
    if (prefillCoversDecode(request, stage)) {
      this.hit('prefill-covers-decode', 'info', stage.stageId, id);
      const example = this.oneOutputExamples.get(stage.stageId);
      if (example === undefined || (values.prefillMs ?? 0) > example.prefillMs)
        this.oneOutputExamples.set(stage.stageId, oneOutputExample(request, stage));
    }
  }

  /**
   * A request vLLM preempted (its KV-cache blocks taken for others, scheduled again later).
   * Only a printed count above 0 is a preemption: an absent row is zero or not measured
   * (hidden when 0 on every stage), `None` is not measured.
   */
  private checkPreemptions(request: AnalyzedRequest, stage: RequestStage): void {
    const count = preemptionCount(stage);
    if (count === null) return;
    this.hit('preempted-requests', 'info', stage.stageId, request.requestId, count, PREEMPTIONS_FIELD);
    let waits = this.preemptionWaits.get(stage.stageId);
    if (waits === undefined) this.preemptionWaits.set(stage.stageId, (waits = new Set()));
    waits.add(preemptionWait(request, stage));
    const stageTime = measurementOf(STAGE_TIME_FIELD, stage.fields[STAGE_TIME_FIELD]);
    if (stageTime === undefined) return;
    let times = this.preemptedStageTimes.get(stage.stageId);
    if (times === undefined) this.preemptedStageTimes.set(stage.stageId, (times = new SampleSet()));
    times.add(stageTime);
  }

  /**
   * The preempted requests' stage time against the stage's median over all its requests; ''
   * where that says nothing: fewer than MIN_PREEMPTED_COMPARED preempted, or so large a share of
   * the stage that its median is mostly theirs.
   */
  private preemptedStageTimeText(stageId: number | null, stages: readonly StageSummary[]): string {
    const preempted = this.preemptedStageTimes.get(stageId)?.distribution() ?? null;
    const all = stages.find((s) => s.stageId === stageId && s.replicaId === null)?.fields[STAGE_TIME_FIELD];
    if (preempted === null || all === undefined) return '';
    if (preempted.count < MIN_PREEMPTED_COMPARED || preempted.count > MAX_PREEMPTED_SHARE * all.count) return '';
    const theirs = `Their ${STAGE_TIME_FIELD} has a median of ${formatMs(preempted.p50)} ms`;
    const stage = `${formatMs(all.p50)} ms over all ${countOf(all.count, 'request')} of the stage (these included)`;
    return preempted.p50 > all.p50
      ? ` ${theirs}, above the ${stage}.`
      : ` ${theirs}, not above the ${stage}: here the preemptions cost them little.`;
  }

  /**
   * Offline Omni.generate builds one aggregator per prompt with one shared start: each
   * [Overall Summary] says e2e_requests 1, and its wall time runs from the shared start, so it
   * is longer than the prompt's own E2E and grows with finishing order (docs/formats.md#numbers-that-lie-in-known-ways,
   * offline overall summaries). Served requests have their own start: wall = E2E.
   */
  private checkOverallSummary(request: AnalyzedRequest): void {
    const overall = request.overallSummary;
    if (overall === null) return;
    this.overallSummaries += 1;
    const covers = numberOf(overall.fields, 'e2e_requests');
    const wall = numberOf(overall.fields, 'e2e_wall_time_ms');
    const e2e = e2eTableMs(request.e2e['e2e_total_ms']);
    if (covers !== 1 || wall === undefined || e2e === undefined || !(wall > e2e * (1 + SHARED_START_SLACK) + 1)) return;
    this.hit('overall-summary-per-prompt', 'info', null, request.requestId, wall - e2e, 'e2e_wall_time_ms');
  }

  /**
   * Stages that ran at the same time, within one request: their [OmniTiming] times add up to
   * more than the engine time (beyond the 10 ms printing), as under async chunk, where a
   * downstream stage runs while the stages upstream still work.
   */
  private checkStageOverlap(request: AnalyzedRequest): void {
    const overlapMs = stageTimesOverlapMs(request);
    if (overlapMs === null) return;
    this.timedRequests += 1;
    if (overlapMs > 0) this.hit('stage-times-overlap', 'info', null, request.requestId, overlapMs);
  }

  private hit(
    code: FindingCode,
    severity: Severity,
    stageId: number | null,
    requestId: string,
    value = 0,
    field = '',
  ): void {
    // Buckets by code, then stage: no key string built per hit (some codes hit every request).
    let byStage = this.bucketIndex.get(code);
    if (byStage === undefined) {
      byStage = new Map();
      this.bucketIndex.set(code, byStage);
    }
    let b = byStage.get(stageId);
    if (b === undefined) {
      b = { code, severity, stageId, requestIds: [], worst: value, worstRequest: requestId, worstField: field };
      byStage.set(stageId, b);
      this.buckets.push(b);
    }
    b.requestIds.push(requestId);
    if (Math.abs(value) > Math.abs(b.worst)) {
      b.worst = value;
      b.worstRequest = requestId;
      b.worstField = field;
    }
  }

  private message(b: Bucket, roles: Readonly<Record<string, string>>, stages: readonly StageSummary[]): string {
    const n = b.requestIds.length;
    const of = (stageId: number | null): string => `${n} of ${this.stageRequests.get(stageId) ?? n} requests`;
    const stage = b.stageId === null ? '' : sentenceStage(String(b.stageId), roles);
    switch (b.code) {
      case 'ttft-not-recorded':
        return `${stage} produced output but reported vllm_ttft_ms 0 with no vllm_prefill_ms on ${of(b.stageId)}: the codec first-audio signature of a build without the stats fix (talker_first_audio), so its TTFT is shown as not recorded, not as 0 ms.`;
      case 'diffusion-ttft-default':
        return `${stage} is a diffusion stage and printed vllm_ttft_ms 0 on ${of(b.stageId)}: the field's default (vLLM's output processor sets it; a diffusion engine does not), so its TTFT is shown as not recorded, not as 0 ms. Its time to first output is serving_time_to_first_output_ms.`;
      case 'ttft-no-output':
        return `${stage} produced no output and printed vllm_ttft_ms 0 with no vllm_prefill_ms on ${of(b.stageId)}: no first token was ever seen, so the 0 is the field's default, not a time; its TTFT is shown as not recorded, not as 0 ms.`;
      case 'split-mismatch':
        return `${stage}: vllm_input_wait_ms + vllm_ready_queued_ms differs from vllm_queued_ms by more than ${SPLIT_TOLERANCE_MS} ms on ${of(b.stageId)} (worst ${fmt(b.worst)} ms on ${b.worstRequest}); the split is not trustworthy there.`;
      case 'negative-interval':
        return `${b.stageId === null ? 'Request-level' : stage} duration below zero on ${countOf(n, 'request')} (worst ${b.worstField} = ${nonFiniteText(b.worst) ?? `${fmt(b.worst)} ms`} on ${b.worstRequest}): a clock or accounting bug in the server, not a real time. Such values are kept as printed in each request and shown as not recorded, never taken into percentiles or means.`;
      case 'queued-includes-input-wait':
        return `${stage} reports a vllm_queued_ms of ${QUEUED_INPUT_WAIT_FLOOR_MS} ms or more without the input-wait split on ${of(b.stageId)}: on a downstream stage the queued time includes the wait for upstream input, so queueing and waiting for input cannot be told apart (largest ${fmt(b.worst)} ms on ${b.worstRequest}).`;
      case 'ttft-includes-upstream-wait':
        return (
          `${stage}'s vllm_ttft_ms exceeds its vllm_queued_ms + vllm_prefill_ms on ${of(b.stageId)} (by up to ${fmt(b.worst)} ms, on ${b.worstRequest}): its first output was handled well after its first token. ` +
          "Under talker first audio (with the stats fix) a codec's outputs that come before the talker's first-audio frame are held back and replayed after it: its prefill and ITLs keep their engine times, its TTFT is taken at the replay, so it includes the wait for that frame. " +
          "Read that TTFT as time to first audio from the stage's arrival, not as its own queueing and prefill; the rest of it is time upstream."
        );
      case 'preempted-requests':
        return (
          `${stage} preempted ${of(b.stageId)} (${b.worst === 1 ? (n === 1 ? 'once' : 'once each') : `up to ${groupedNumber(b.worst, 0, 0)} times, on ${b.worstRequest}`}): vLLM took their KV-cache blocks for other requests and scheduled them again later. ` +
          `vllm_queued_ms ends at the first scheduling, so the wait for the next is inside their ${preemptionWaitText(this.preemptionWaits.get(b.stageId))}: time lost for want of KV-cache room, not spent on their tokens.` +
          this.preemptedStageTimeText(b.stageId, stages) +
          ' Fewer preemptions take more KV-cache room per request: a higher gpu_memory_utilization, or a lower max_num_seqs or max_num_batched_tokens for the stage.'
        );
      case 'diffusion-zero-ambiguous':
        return `${stage} prints diffusion timings as truncated _ms integers (a build before the missing-value rule): there a 0 in preprocess_time_ms or output_ready_wait_time_ms can mean "not measured", and the log hides all-zero rows, so absent rows are ambiguous on ${of(b.stageId)}.`;
      case 'truncated-record':
        return truncatedMessage(n - this.truncatedDicts, this.truncatedDicts);
      case 'stage-tables-missing':
        return tablesMissingMessage(n, this.requestTotal, this.debugLines, this.overallTables, this.statsTablesAtDebug);
      case 'phase-split-not-printed':
        return phaseSplitNotPrintedMessage(n, this.requestTotal);
      case 'prefill-covers-decode':
        return this.oneOutputMessage(b.stageId, of(b.stageId), roles);
      case 'stage-times-overlap':
        return `On ${n} of ${this.timedRequests} requests with an [OmniTiming] line the stage times add up to more than the engine time (by up to ${fmt(b.worst)} ms, on ${b.worstRequest}): the stages ran at the same time. Under async chunk a downstream stage runs while the stages upstream still work, fed as they produce, so its time holds theirs; adding stage times up, or reading a downstream stage's time as its own work, counts that time twice.`;
      case 'overall-summary-per-prompt':
        return (
          `${n} of ${this.overallSummaries} [Overall Summary] tables say e2e_requests 1 with an e2e_wall_time_ms longer than that request's own e2e_total_ms ` +
          `(by up to ${fmt(b.worst)} ms, on ${b.worstRequest}): offline Omni.generate builds one aggregator per prompt with one shared start, so each table covers one prompt ` +
          "and its wall time grows with finishing order. None of them covers the run, and adding or averaging them does not give one: Stage Lens does neither; the run's figures are the per-request tables."
        );
      case 'repeated-request-ids':
        return this.repeats.message(this.requestTotal) ?? '';
      case 'cold-start':
      case 'metric-not-reporting':
      case 'input-compressed':
      case 'input-binary':
      case 'input-zero-filled':
      case 'input-deploy-config':
      case 'input-gzip-damaged':
      case 'input-cut-short':
      case 'legacy-stats-format':
      case 'engine-stats-only':
      case 'boots-differ-in-pipeline':
      case 'slow-server':
      case 'servers-differ-in-pipeline':
        return '';
    }
  }

  private oneOutputMessage(stageId: number | null, of: string, roles: Readonly<Record<string, string>>): string {
    const e = this.oneOutputExamples.get(stageId);
    const signs: string[] = [];
    if (e !== undefined) {
      signs.push(
        e.tokensOut !== null
          ? `vllm_decode_ms 0 or hidden with ${fmt(e.tokensOut)} tokens out`
          : 'vllm_decode_ms 0 or hidden with one output',
      );
      if (e.ttftMs !== null && e.genTimeMs !== null)
        signs.push(`TTFT ${fmt(e.ttftMs)} ms of a ${fmt(e.genTimeMs)} ms stage`);
    }
    const example = e === undefined ? '' : ` (e.g. request ${e.requestId}: ${signs.join(', ')})`;
    return (
      `${stageId === null ? 'Stage' : sentenceStage(String(stageId), roles)} emits one output, when it stops, on ${of}${example}: the Model Runner V2 + async chunk signature of a non-final autoregressive stage (the Qwen3-TTS talker). ` +
      `Its vllm_prefill_ms runs from first SCHEDULED to that output, so it also covers every decode step: shown and ranked for slowest phase as one phase, ${PREFILL_DECODE_LABEL}, never as prefill alone.`
    );
  }

  /** "2 boots in this log"; in a view of some requests, "in boot 2, of the 2 boots in this log": its count is the view's, the boots the log's. */
  private coldBootsText(): string {
    const inLog = countOf(this.logColdBoots.size, 'boot');
    return this.scopeWords === null ? `${inLog} in this log` : `in ${this.scopeWords}, of the ${inLog} in this log`;
  }

  private coldFinding(
    stages: readonly StageSummary[],
    maxRequestIds: number,
    roles: Readonly<Record<string, string>>,
  ): Finding | null {
    if (this.coldRequests.length === 0) return null;
    // Name the phase where a cold request stands out most against the stage's median. A
    // downstream stage's wait for its input is the upstream stages' time seen from there:
    // their own phase is named first, the wait only when nothing of their own stands out.
    let own = { ratio: 0, text: '' };
    let wait = { ratio: 0, text: '' };
    for (const request of this.coldRequests) {
      const firstStageId = firstStageIdOf(request.stages);
      for (const stage of request.stages) {
        const summary = stages.find((s) => s.stageKey === stage.stageKey && s.replicaId === null);
        const oneOutput = prefillCoversDecode(request, stage);
        const downstream = stage.stageId !== null && stage.stageId > firstStageId;
        const waitSplit = stage.split.states.inputWaitMs === 'measured';
        for (const [phase, label] of COLD_PHASES) {
          if (oneOutput && phase === 'decodeMs') continue;
          // With the split, a downstream stage's own queueing is its ready-queued time.
          if (phase === (waitSplit ? 'queuedMs' : 'readyQueuedMs')) continue;
          const v = stage.split.values[phase];
          const median =
            oneOutput && phase === 'prefillMs' ? summary?.prefillDecodeMs?.p50 : summary?.split[phase]?.p50;
          const what = oneOutput && phase === 'prefillMs' ? PREFILL_DECODE_LABEL : label;
          if (v === null || median === undefined || v <= 0) continue;
          const ratio = v / Math.max(median, 0.001);
          const isWait = phase === 'inputWaitMs' || (downstream && phase === 'queuedMs');
          const note = !isWait
            ? ''
            : phase === 'inputWaitMs'
              ? ": its wait for the upstream stages' output, so the cold cost is theirs"
              : ": a downstream stage's queued time, which includes its wait for the upstream stages' output";
          const text = ` Largest: request ${request.requestId}, ${stageLabel(stage.stageKey, roles)} ${what} ${durationText(v)} against a stage median of ${durationText(median)}${note}.`;
          if (isWait) {
            if (ratio > wait.ratio) wait = { ratio, text };
          } else if (ratio > own.ratio) own = { ratio, text };
        }
      }
    }
    const best = own.ratio >= 2 ? own : wait;
    const n = this.coldRequests.length;
    return {
      code: 'cold-start',
      severity: 'info',
      stageId: null,
      requestIds: this.coldRequests.slice(0, maxRequestIds).map((r) => r.requestId),
      requestCount: this.coldRequests.length,
      message: `${countOf(n, 'request was', 'requests were')} the first after a server start (${this.coldBootsText()}); a cold start can put a one-time cost (JIT builds, graph capture) into any phase, so read its numbers apart from steady state.${best.ratio >= 2 ? best.text : ''}`,
    };
  }
}

/** The phases a cold request is compared on, against its stage's median. */
const COLD_PHASES = [
  ['inputWaitMs', 'input wait'],
  ['queuedMs', 'queued'],
  ['readyQueuedMs', 'ready queued'],
  ['prefillMs', 'prefill'],
  ['decodeMs', 'decode'],
] as const;

function ttftPrintedOdd(stage: RequestStage): boolean {
  const cell = stage.fields[SPLIT_FIELD.ttftMs];
  return cell !== undefined && cell.state === 'measured' && unrecordedReason(SPLIT_FIELD.ttftMs, cell.value) !== null;
}

/** A finding about the input as a whole (what it is, where it broke off): no stage, no request of its own. */
function inputFinding(code: FindingCode, severity: Severity, message: string): Finding {
  return { code, severity, stageId: null, requestIds: [], requestCount: 0, message };
}

/** A compressed file read as a log: what it is and how to read it, said before any number. */
function compressedFinding(format: CompressedFormat): Finding {
  const { cat, extension } = decompressWith(format);
  return inputFinding(
    'input-compressed',
    'error',
    `The input is ${format}-compressed (a rotated log?), not the text a server prints, so nothing in it was read. Decompress it first: \`${cat} server.log.1.${extension} | stage-lens analyze -\` (explain and compare read stdin too), or ${cat} it into a file to import in the editor.`,
  );
}

/** Gzip data that broke off: the log's `requests` before it are read (`within` a view: how many of them it holds), the rest is not; an error when that left no request. */
function gzipDamagedFinding(damage: ParseProblem, requests: number, within: RequestsInScope | null): Finding {
  // A scrape has no requests: its finding is the CLI's for the same file.
  if (damage.gzipDamaged?.input === 'scrape') return scrapeGzipDamagedFindingOf(damage.message);
  return inputFinding(
    'input-gzip-damaged',
    requests === 0 ? 'error' : 'warning',
    gzipDamagedFindingText(damage.message, logRequestsReadText(requests, within)),
  );
}

/** A deploy config's YAML read as a log: what it is and what to give instead, said before any number. */
const DEPLOY_CONFIG_FINDING: Finding = inputFinding(
  'input-deploy-config',
  'error',
  "The input is a vLLM-Omni deploy config (YAML), not the log a server prints, so nothing in it was read. Give the log of a server run with it (--log-stats, VLLM_LOGGING_LEVEL=DEBUG for the stats tables); the config's settings are read with analyze --deploy-config, or in the editor, where a session's numbers show on its stages.",
);

/** Binary data read as a log: said before any number, with what was read of it. */
function binaryFinding(requests: number): Finding {
  return inputFinding(
    'input-binary',
    'error',
    `The input is binary data, not the text a server prints (its first bytes are neither UTF-8 nor UTF-16 text)${requests === 0 ? ', so nothing in it was read' : ''}: give the server's log file, or a /metrics scrape.`,
  );
}

/** An input of NUL bytes only: a file whose space was reserved, or that was truncated, with no line written since. */
function zeroFilledFinding(bytes: number): Finding {
  return inputFinding(
    'input-zero-filled',
    'error',
    `The input is ${countOf(bytes, 'NUL byte')} and nothing else: a zero-filled file (its space reserved, or the file truncated, and no line written to it since), so nothing in it was read. Give the server's log file once it has lines, or a /metrics scrape.`,
  );
}

/**
 * Σ [OmniTiming] stage times − the engine time, ms, when that is more than their printing can
 * explain (each is printed to 10 ms, so off by up to 5 ms); 0 when it is not; null without an
 * engine time and two stage times.
 */
function stageTimesOverlapMs(request: AnalyzedRequest): number | null {
  const timing = request.timing;
  if (timing === null || timing.engineS === null || timing.stages.length < 2) return null;
  let sumS = 0;
  for (const stage of timing.stages) sumS += stage.seconds;
  const overlapMs = (sumS - timing.engineS) * 1000;
  return overlapMs > 5 * (timing.stages.length + 1) ? toLogPrecision(overlapMs) : 0;
}

/** Cut-off requests: `tables` from stats tables, `dicts` from stats dicts of the format before February 2026. */
function truncatedMessage(tables: number, dicts: number): string {
  const parts: string[] = [];
  if (tables > 0)
    parts.push(
      `${tables} request${tables === 1 ? ' has' : 's have'} a table that was cut off or lost a line (end of input or an interrupted write); the rows that were read are kept; the rows it did not read (after the last one read, or where the lost line was: the table sorts them by name) are unknown, shown as not recorded, not as hidden.`,
    );
  if (dicts > 0)
    parts.push(
      `${dicts} request${dicts === 1 ? ' has' : 's have'} a stats dict that was cut off (end of input or an interrupted write); the values that were read are kept; the rest are unknown.`,
    );
  return parts.join(' ');
}
