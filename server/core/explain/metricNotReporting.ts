// `metric-not-reporting`: a metric that is registered (the family is exposed, the log
// line is printed) but reads 0 while requests finish. Such a 0 is not a measurement; it
// is a stats path that does not deliver. Known cases on vLLM-Omni:
//  - per-stage `vllm:*` families (TTFT, ITL, e2e, prefill, tokens) with no samples while
//    the pipeline-level `vllm_omni:*` families count finished requests (vllm-omni#4960, vllm-omni#5170);
//  - a stage's TTFT histogram with no sample while its ITL histogram has some (vllm-omni#4960; the
//    codec under talker first audio before the stats fix, seed 000);
//  - KV-cache usage reading 0 on an engine that is running requests (the 1 s throttle in
//    OmniSchedulerMixin.make_stats(), vllm-omni#4802).
// The finding names the family, the evidence and the known causes; a view greys the
// series out instead of plotting it as a real 0. A 0 needs its evidence: a series whose count is
// unknown is not a 0, and the family a scrape cut short breaks off in (scrapeCut.ts) is not judged,
// as its series after the cut are missing.
import type { EngineSeries } from '../analysis/engineSeries';
import type { Finding } from '../analysis/types';
import { labelsKey, stageIdOf } from '../metricsText/labels';
import { findOneOutputStages, type OneOutputStage } from '../metricsText/oneOutputSignature';
import { canonicalMetricName, findFamily } from '../metricsText/metricNames';
import { cutFamilyOf, WHOLE_INPUT, type FamilyRead, type ScrapeEnd } from '../metricsText/scrapeCut';
import type { HistogramFamily, Labels, MetricFamily, ParsedExposition, ScalarFamily } from '../metricsText/model';
import { andList } from '../andList';
import { groupedNumber } from '../numberText';
import { inClockWindow, type ClockWindow } from './timeWindow';

export const KNOWN_CAUSES = {
  statsNotDelivered:
    'vllm-omni #5170: log_stats never reaches locally launched stage engines (stage_runtime passes log_stats=False) and the IterationStats that do arrive are discarded, so the per-stage vllm:* families can never carry data',
  statsPathDrift:
    "vllm-omni #4960 (fixed by PR #4974): the stage metrics path drifted from vLLM's (log_stats not propagated, IterationStats replaced, stats gated on SchedulerStats), so per-stage vllm:* time and token metrics stay 0 while vllm_omni:* ones update",
  statsThrottle:
    "vllm-omni #4802: OmniSchedulerMixin.make_stats() returns None within 1 s of its last stats and skips vLLM's own make_stats(), so kv_cache_usage_perc, prefix-cache and prompt-token counters read 0 under load",
  codecFirstAudio:
    'seed 000: before the codec TTFT fix, under talker first audio the codec stage records no TTFT (its first output is counted as a decode step) while its ITL has samples',
} as const;

/** Per-stage vLLM families that a stage serving requests must feed (histograms by count, counters by value). */
const PER_STAGE_FAMILIES = [
  'vllm:time_to_first_token_seconds',
  'vllm:inter_token_latency_seconds',
  'vllm:e2e_request_latency_seconds',
  'vllm:request_prefill_time_seconds',
  'vllm:request_decode_time_seconds',
  'vllm:prompt_tokens',
  'vllm:generation_tokens',
] as const;

const FINISHED_FAMILIES = ['vllm_omni:e2e_request_latency_s', 'vllm_omni:requests_success'] as const;

function finding(stageId: number | null, family: string, evidence: string, causes: readonly string[]): Finding {
  return {
    code: 'metric-not-reporting',
    severity: 'warning',
    stageId,
    requestIds: [],
    requestCount: 0,
    message: `${family} is registered but reads 0 while requests finish: ${evidence}. Not a measurement; do not plot it as 0.`,
    family,
    evidence,
    knownCauses: causes,
  };
}

function familyOf(exposition: ParsedExposition, name: string): MetricFamily | undefined {
  return findFamily(exposition, name) ?? findFamily(exposition, `${name}_total`);
}

/** Observations of a histogram series, or the value of a counter/gauge series. */
function amounts(family: MetricFamily): { labels: Labels; amount: number | null }[] {
  if (family.type === 'histogram')
    return (family as HistogramFamily).series.map((s) => ({ labels: s.labels, amount: s.count }));
  if (family.type === 'summary') return family.series.map((s) => ({ labels: s.labels, amount: s.count }));
  return (family as ScalarFamily).series.map((s) => ({ labels: s.labels, amount: s.value }));
}

/** Whether a series the check reads has no count (a histogram without `_count` or +Inf bucket): its amount is unknown, not 0. */
function hasUnknownAmount(family: MetricFamily, skip: ReadonlySet<string>): boolean {
  return amounts(family).some((a) => !skip.has(labelsKey(a.labels)) && (a.amount === null || Number.isNaN(a.amount)));
}

function total(family: MetricFamily | undefined, skip: ReadonlySet<string> = new Set()): number {
  if (family === undefined) return 0;
  let n = 0;
  for (const a of amounts(family))
    if (a.amount !== null && Number.isFinite(a.amount) && !skip.has(labelsKey(a.labels))) n += a.amount;
  return n;
}

const ITL_FAMILY = 'vllm:inter_token_latency_seconds';
const TTFT_FAMILY = 'vllm:time_to_first_token_seconds';
const KV_USAGE_FAMILY = 'vllm:kv_cache_usage_perc';
const RUNNING_FAMILY = 'vllm:num_requests_running';

/** Series of a one-output stage: one output per request, so no inter-token latency to record (oneOutputSignature.ts). */
function oneOutputKeys(stages: readonly OneOutputStage[]): Set<string> {
  return new Set(stages.map((s) => labelsKey(s.labels)));
}

const stageText = (labels: Labels): string => `stage ${labels['stage'] ?? '?'} replica ${labels['replica'] ?? '?'}`;

const replicaKey = (labels: Labels): string => `${labels['stage'] ?? ''}/${labels['replica'] ?? ''}`;

/**
 * The (stage, replica) series whose TTFT histogram has no sample while its inter-token latency
 * has some, series by series: an ITL series without a count (cut, or no _count) says nothing.
 */
function ttftEmptyWhileItl(ttft: MetricFamily, itl: MetricFamily): { labels: Labels; itlCount: number }[] {
  const itlBy = new Map(amounts(itl).map((a) => [replicaKey(a.labels), a.amount]));
  const out: { labels: Labels; itlCount: number }[] = [];
  for (const a of amounts(ttft)) {
    const itlCount = itlBy.get(replicaKey(a.labels));
    if (a.amount === 0 && itlCount !== undefined && itlCount !== null && itlCount > 0)
      out.push({ labels: a.labels, itlCount });
  }
  return out;
}

/** How a check's "Checked:" sentence names what it found: nothing, one series, several, and that the rest are clean. */
interface CheckWords {
  readonly none: string;
  readonly one: (names: string) => string;
  readonly many: (names: string) => string;
  readonly noOther: string;
}

const TTFT_CHECK: CheckWords = {
  none: "no stage's TTFT histogram is empty while its inter-token latency has samples",
  one: (names) => `the TTFT histogram of ${names} is empty while its inter-token latency has samples`,
  many: (names) => `the TTFT histograms of ${names} are empty while their inter-token latency has samples`,
  noOther: "no other stage's is",
};

const KV_CHECK: CheckWords = {
  none: 'no engine with requests running reads a KV-cache usage of 0',
  one: (names) => `the engine of ${names} reads a KV-cache usage of 0 with requests running`,
  many: (names) => `the engines of ${names} read a KV-cache usage of 0 with requests running`,
  noOther: 'no other engine does',
};

/**
 * What a check found, said after "Checked:": nothing, or the series its findings name (of
 * `series` series: "no other" only where there are others).
 */
function checkedText(found: readonly Labels[], series: number, words: CheckWords): string {
  if (found.length === 0) return words.none;
  const names = andList(found.map(stageText));
  const others = series > found.length ? `; ${words.noOther}` : '';
  return `${(found.length === 1 ? words.one : words.many)(names)} (metric-not-reporting, above)${others}`;
}

/**
 * The families a metric-not-reporting finding of a scrape is read from: KV-cache usage with the
 * running requests; a stage's TTFT with its inter-token latency (series by series: a stage's
 * series read whole before a cut inside that family serve); any other family with a family
 * counting finished requests (any one of them).
 */
export function notReportingReads(f: {
  readonly stageId: number | null;
  readonly family?: string;
}): readonly FamilyRead[] {
  if (f.family === undefined) return [];
  const family = canonicalMetricName(f.family);
  if (family === KV_USAGE_FAMILY) return [{ names: [KV_USAGE_FAMILY] }, { names: [RUNNING_FAMILY] }];
  if (family === TTFT_FAMILY && f.stageId !== null)
    return [{ names: [TTFT_FAMILY] }, { names: [ITL_FAMILY], perSeries: true }];
  return [{ names: [family] }, { names: FINISHED_FAMILIES }];
}

/** Every reading with requests running read 0 (and there was one). */
const stuckAtZero = (e: { readonly loaded: number; readonly zeroUnderLoad: number }): boolean =>
  e.zeroUnderLoad > 0 && e.zeroUnderLoad >= e.loaded;

/** KV-cache usage against running requests per (stage, replica), over one or more scrapes. */
export class KvUsageTracker {
  private readonly byReplica = new Map<
    string,
    { stage: number | null; labels: Labels; loaded: number; zeroUnderLoad: number; lastRunning: number }
  >();

  /** One reading of a (stage, replica): KV usage (any unit) and running requests. */
  note(labels: Labels, kvUsage: number, running: number): void {
    if (!(running > 0)) return;
    const key = replicaKey(labels);
    let entry = this.byReplica.get(key);
    if (entry === undefined)
      this.byReplica.set(
        key,
        (entry = { stage: stageIdOf(labels), labels, loaded: 0, zeroUnderLoad: 0, lastRunning: 0 }),
      );
    entry.loaded++;
    entry.lastRunning = running;
    if (kvUsage === 0) entry.zeroUnderLoad++;
  }

  /** `end`: how the scrape's input ended; a family it was cut in is not read (its last value may be cut too). */
  noteExposition(exposition: ParsedExposition, end: ScrapeEnd = WHOLE_INPUT): void {
    const kv = familyOf(exposition, KV_USAGE_FAMILY);
    const running = familyOf(exposition, RUNNING_FAMILY);
    if (kv === undefined || running === undefined) return;
    const cut = cutFamilyOf(exposition, end);
    if (cut === kv || cut === running) return;
    const runningBy = new Map(amounts(running).map((a) => [replicaKey(a.labels), a.amount]));
    for (const a of amounts(kv)) {
      const r = runningBy.get(replicaKey(a.labels));
      if (a.amount !== null && r !== undefined && r !== null) this.note(a.labels, a.amount, r);
    }
  }

  /** The (stage, replica) series whose every reading with requests running was 0: one finding each. */
  zeroUnderLoad(): Labels[] {
    return [...this.byReplica.values()].filter(stuckAtZero).map((e) => e.labels);
  }

  findings(family: string, source: string): Finding[] {
    const out: Finding[] = [];
    for (const e of this.byReplica.values()) {
      if (!stuckAtZero(e)) continue;
      out.push(
        finding(
          e.stage,
          family,
          `${stageText(e.labels)}: ${e.zeroUnderLoad} of ${e.loaded} ${source} with requests running (last: ${e.lastRunning}) read 0`,
          [KNOWN_CAUSES.statsThrottle, KNOWN_CAUSES.statsNotDelivered],
        ),
      );
    }
    return out;
  }
}

/**
 * Findings of one /metrics scrape (a session adds its KV tracker over all scrapes instead of the
 * single-scrape one, having noted the scrape in it). `end`: how the scrape's input ended.
 */
export function metricNotReportingInScrape(
  exposition: ParsedExposition,
  kv: KvUsageTracker | null = null,
  end: ScrapeEnd = WHOLE_INPUT,
): Finding[] {
  const out: Finding[] = [];
  const cut = cutFamilyOf(exposition, end);
  const finishedFamily = FINISHED_FAMILIES.map((n) => ({ name: n, family: familyOf(exposition, n) })).find(
    (f) => f.family !== undefined && total(f.family) > 0,
  );
  const finished = finishedFamily === undefined ? 0 : total(finishedFamily.family);
  const silentFamilies = new Set<string>();
  const oneOutput = oneOutputKeys(findOneOutputStages(exposition));
  if (finishedFamily !== undefined) {
    for (const name of PER_STAGE_FAMILIES) {
      const family = familyOf(exposition, name);
      // A one-output stage's empty ITL series is expected: only the other stages' series can say the family is silent.
      const skip = name === ITL_FAMILY ? oneOutput : new Set<string>();
      if (family === undefined || family.series.every((s) => skip.has(labelsKey(s.labels)))) continue;
      if (family === cut || hasUnknownAmount(family, skip) || total(family, skip) !== 0) continue;
      silentFamilies.add(name);
      out.push(
        finding(
          null,
          family.name,
          `0 on all ${family.series.length} (stage, replica) series while ${finishedFamily.name} counts ${groupedNumber(finished, 0, 3)} finished requests`,
          [KNOWN_CAUSES.statsNotDelivered, KNOWN_CAUSES.statsPathDrift],
        ),
      );
    }
  }
  // A stage's TTFT without samples while its ITL has some (unless the whole family is silent, reported above).
  // Series by series: in an ITL family the scrape broke off in, a series the cut reached has no
  // count and one after it is absent, so only those read whole are judged. A TTFT family cut is
  // not judged: whether the whole family is silent is unknown.
  const ttft = familyOf(exposition, TTFT_FAMILY);
  const itl = familyOf(exposition, ITL_FAMILY);
  if (ttft !== undefined && itl !== undefined && ttft !== cut && !silentFamilies.has(TTFT_FAMILY)) {
    for (const { labels, itlCount } of ttftEmptyWhileItl(ttft, itl)) {
      out.push(
        finding(
          stageIdOf(labels),
          ttft.name,
          `${stageText(labels)}: no TTFT sample while its inter-token latency has ${groupedNumber(itlCount, 0, 3)}`,
          [KNOWN_CAUSES.codecFirstAudio, KNOWN_CAUSES.statsPathDrift],
        ),
      );
    }
  }
  const tracker = kv ?? new KvUsageTracker();
  if (kv === null) tracker.noteExposition(exposition, end);
  out.push(...tracker.findings(KV_USAGE_FAMILY, kv === null ? 'scrape' : 'scrapes'));
  return out;
}

/**
 * What metricNotReportingInScrape could check in this scrape, one sentence each, and what it
 * left alone: so that "no finding" is never read as "every series reports".
 */
export function scrapeChecksDone(exposition: ParsedExposition, end: ScrapeEnd = WHOLE_INPUT): string[] {
  const out: string[] = [];
  const cut = cutFamilyOf(exposition, end);
  const cutText = (name: string): string =>
    `as the scrape is cut inside ${name}, so its series after the cut are not read`;
  const finishedFamily = FINISHED_FAMILIES.map((n) => ({ name: n, family: familyOf(exposition, n) })).find(
    (f) => f.family !== undefined && total(f.family) > 0,
  );
  const oneOutput = oneOutputKeys(findOneOutputStages(exposition));
  const exposed: string[] = [];
  // A family stuck at 0 is metricNotReportingInScrape's finding, never said to have samples.
  const reporting: string[] = [];
  // Families whose 0 would have no evidence: what the scrape holds of them says nothing either way.
  const unjudged: string[] = [];
  for (const n of PER_STAGE_FAMILIES) {
    const family = familyOf(exposition, n);
    const skip = n === ITL_FAMILY ? oneOutput : new Set<string>();
    if (family !== undefined && !family.series.every((s) => skip.has(labelsKey(s.labels)))) {
      exposed.push(family.name);
      if (family === cut) unjudged.push(`Not checked: whether ${family.name} reports, ${cutText(family.name)}.`);
      else if (total(family, skip) !== 0) reporting.push(family.name);
      else if (hasUnknownAmount(family, skip))
        unjudged.push(
          `Not checked: whether ${family.name} reports, as a series of it exposes no count (no _count, no +Inf bucket): unknown, not 0.`,
        );
    }
  }
  if (finishedFamily === undefined)
    out.push(
      `Not checked: whether the per-stage vllm:* families report, as no finished-request count (${FINISHED_FAMILIES.join(', ')}) is above 0.`,
    );
  else if (exposed.length === 0) out.push('Not checked: the scrape exposes none of the per-stage vllm:* families.');
  else {
    if (reporting.length > 0)
      out.push(
        `Checked: ${reporting.join(', ')} each have samples on some stage while ${finishedFamily.name} counts ${groupedNumber(total(finishedFamily.family), 0, 3)} finished requests (a family as a whole; one stage's empty series is not a finding by itself).`,
      );
    out.push(...unjudged);
  }
  // Each "Checked:" says what its check found: nothing, or what the findings above say.
  const ttft = familyOf(exposition, TTFT_FAMILY);
  const itl = familyOf(exposition, ITL_FAMILY);
  if (ttft !== undefined && itl !== undefined) {
    const found = cut === ttft ? [] : ttftEmptyWhileItl(ttft, itl).map((f) => f.labels);
    out.push(
      cut === ttft
        ? `Not checked: whether a stage's TTFT histogram is empty while its inter-token latency has samples, ${cutText(cut.name)}.`
        : cut === itl
          ? `Checked on the series read whole before the cut inside ${itl.name}: ${checkedText(found, ttft.series.length, TTFT_CHECK)}; not checked on its series the cut reached or took.`
          : `Checked: ${checkedText(found, ttft.series.length, TTFT_CHECK)}.`,
    );
  }
  const kv = familyOf(exposition, KV_USAGE_FAMILY);
  const running = familyOf(exposition, RUNNING_FAMILY);
  if (kv !== undefined && running !== undefined) {
    const tracker = new KvUsageTracker();
    tracker.noteExposition(exposition, end);
    out.push(
      cut === kv || cut === running
        ? `Not checked: whether an engine with requests running reads a KV-cache usage of 0, ${cutText(cut.name)}.`
        : `Checked: ${checkedText(tracker.zeroUnderLoad(), kv.series.length, KV_CHECK)}.`,
    );
  }
  for (const s of findOneOutputStages(exposition)) {
    const where = `stage ${s.labels['stage'] ?? '?'} replica ${s.labels['replica'] ?? '?'}`;
    out.push(
      `The inter-token latency of ${where} has no sample, as expected: the stage emitted one output per request (${groupedNumber(s.prefillCount, 0, 3)} prefill times, every decode 0), so there is no time between tokens to record. Not a metric that does not report.`,
    );
  }
  return out;
}

/**
 * The `Engine NNN:` lines a view judges: those printed in `boot`, by `server` (a merged log's
 * tag), those whose log time lies in `window` (a line without a time in none), or, `logWide`, the
 * log's every line, said so, for a view whose window is not on the log clock (the last seconds
 * of a capture).
 */
export interface EngineLineScope {
  readonly boot?: number;
  readonly server?: string;
  readonly window?: ClockWindow;
  readonly logWide?: boolean;
}

/** " of boot 2", " in the window", " of boot 2 in the window", " of the log", or '' for the whole log's lines (a server's engines name their server). */
export function engineLineScopeText({ boot, window, logWide }: EngineLineScope): string {
  if (logWide === true) return ' of the log';
  return `${boot === undefined ? '' : ` of boot ${boot}`}${window === undefined ? '' : ' in the window'}`;
}

/** Whether line `i` of engine `e` is one `scope` keeps. */
export function inEngineLineScope(e: EngineSeries, i: number, { boot, server, window }: EngineLineScope): boolean {
  return (
    (server === undefined || e.server === server) &&
    (boot === undefined || e.boots[i] === boot) &&
    (window === undefined || inClockWindow(window, e.times[i]))
  );
}

/**
 * KV-cache usage 0 in every `Engine NNN:` line of an engine that was running requests, over the
 * lines `scope` keeps (a boot's or a window's view: its engines' load is its own).
 */
export function metricNotReportingInEngineLines(
  series: readonly EngineSeries[],
  scope: EngineLineScope = {},
): Finding[] {
  const out: Finding[] = [];
  const ofScope = engineLineScopeText(scope);
  for (const e of series) {
    let loaded = 0;
    let zero = 0;
    for (let i = 0; i < e.running.length; i++) {
      if (!inEngineLineScope(e, i, scope)) continue;
      if (!(e.running[i] > 0)) continue;
      loaded++;
      if (e.kvCacheUsagePerc[i] === 0) zero++;
    }
    if (loaded === 0 || zero < loaded) continue;
    const engine = e.server === null ? `Engine ${e.engine}` : `${e.server}'s Engine ${e.engine}`;
    const where =
      e.stage === null
        ? engine
        : `${engine} (stage ${e.stage} replica ${e.replica ?? '?'}${e.mapping === 'inferred' ? ', inferred from the engine index' : ''})`;
    out.push(
      finding(
        e.stage,
        'GPU KV cache usage (Engine log line)',
        `${where}: ${zero} of ${loaded} lines${ofScope} with requests running read 0.0%`,
        [KNOWN_CAUSES.statsThrottle, KNOWN_CAUSES.statsNotDelivered],
      ),
    );
  }
  return out;
}
