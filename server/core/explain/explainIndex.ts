// What the "why is it slow" queries read, built once per request as it arrives: the
// request's breakdown parts, the values of every target it supports, its stages' spans
// and token counts (packed in a RowArena: only the values a request has, 4 bytes each),
// its finish time, and how many requests were in flight when it arrived (kept up to date
// incrementally, inFlight.ts). Tail attribution, load at arrival, the over-time series
// and the cost model are linear passes over these numbers: no request is re-analysed or
// materialized to answer them, and each new request costs one breakdown.
import { firstStageIdOf } from '../analysis/crossStage';
import { prefillCoversDecode } from '../analysis/oneOutputStage';
import { producedOutput } from '../analysis/stageKind';
import { ttftUpstreamWaitMs } from '../analysis/ttftUpstreamWait';
import type { AnalyzedRequest } from '../analysis/types';
import { numberOf } from '../values';
import { breakdownOf, comparePartMeta } from './breakdown';
import { TimeColumn } from './columns';
import { InFlightCounts } from './inFlight';
import { LOG_RESOLUTION_MS, LogClock } from './logClock';
import { derivedColumn, namedColumn, RowArena, type Column } from './rowArena';
import { compareTargets, targetsOf, targetValue } from './targets';
import type { PartPhase, RequestBreakdown, TargetName, TransferComponent } from './types';
import { compareStageKeys } from '../analysis/stageOrder';

export type { Column } from './rowArena';

export interface PartMeta {
  readonly key: string;
  readonly stageKey: string | null;
  readonly stageId: number | null;
  readonly phase: PartPhase;
  readonly edge: string | null;
  readonly component: TransferComponent | null;
}

export interface PartColumns {
  readonly meta: PartMeta;
  /** The part's ms in each request (NaN: no value). */
  readonly ms: Column;
  /** Its start on the request's clock (NaN: the part has no place), derived from its stage's start and the phases before it. */
  readonly start: Column;
}

export interface StageColumns {
  readonly stageKey: string;
  readonly stageId: number | null;
  /** Span of the stage on the request's clock (ms from arrival). */
  readonly start: Column;
  readonly end: Column;
  readonly tokensIn: Column;
  readonly tokensOut: Column;
  /** 1: ran while the stage before it still worked, 0: did not; absent where the positions do not tell. */
  readonly alongsideUpstream: Column;
  /** vllm_num_preemptions where printed (absent: a hidden row, zero or not measured, or None). */
  readonly preemptions: Column;
  /** By how much the stage's TTFT exceeds its queued + prefill where that is a wait for upstream output (ttftUpstreamWait.ts); absent elsewhere. */
  readonly ttftWaitedUpstream: Column;
}

/** Something kept up to date from the index's requests as they arrive (tailState.ts). */
export interface IndexFollower {
  /** Row `row` was just added. */
  add(row: number): void;
  readonly bytes: number;
}

export interface ExplainIndexOptions {
  /** Year of the log's `MM-DD` timestamps. */
  readonly year?: number;
  /**
   * A live session, asked the same questions again and again as requests arrive: the tail
   * over the whole session is answered from order statistics kept from then on
   * (tailState.ts). A one-shot report (the CLI) takes one pass per question instead.
   */
  readonly live?: boolean;
}

const COLD = 1;
/** Phases of a stage in clock order: a phase starts where the numbers before it end. */
const PHASE_ORDER: readonly PartPhase[] = ['inputWait', 'readyQueued', 'queued', 'prefill', 'decode', 'genOther'];

export class ExplainIndex {
  private readonly arena = new RowArena();
  private readonly ordinalsByPrefix = new Map<string, Map<string, number>>();
  private readonly rowValues = new RowValues();
  private readonly ids: string[] = [];
  /** boot * 2 + cold */
  private readonly bootCold: number[] = [];
  /** A merged log's servers (their tags) by ordinal. */
  private readonly serverNames: string[] = [];
  private readonly serverOrdinals = new Map<string, number>();
  /** Each row's server ordinal (-1: no tag); null until a request names a server. */
  private rowServers: number[] | null = null;
  /** Requests per server ordinal, and of no server's tag. */
  private readonly serverRequests: number[] = [];
  /** Requests per boot of each server ordinal (each server of a merged log numbers its own boots). */
  private readonly serverBootRequests: Map<number, number>[] = [];
  private untaggedRequests = 0;
  private readonly finish = new TimeColumn();
  private readonly partMetas = new Map<string, PartMeta>();
  /** The arena ordinal of each part's ms, by part key. */
  private readonly partOrdinals = new Map<string, number>();
  private partOrder: PartColumns[] | null = null;
  private readonly targetNames = new Set<TargetName>();
  private readonly stageMetas = new Map<string, { stageKey: string; stageId: number | null }>();
  /** Stages some request showed emitting one output (oneOutputStage.ts): their prefill part is prefill+decode. */
  private readonly oneOutput = new Set<string>();
  /** Stages whose rest of gen time held an unmeasured prefill or decode in some request. */
  private readonly unsplit = new Set<string>();
  /** The arena ordinals of each stage's span and token counts, by stage key. */
  private readonly stageOrdinals = new Map<
    string,
    {
      readonly start: number;
      readonly end: number;
      readonly tokensIn: number;
      readonly tokensOut: number;
      readonly alongsideUpstream: number;
      readonly preemptions: number;
      readonly ttftWaitedUpstream: number;
    }
  >();
  private stageOrder: StageColumns[] | null = null;
  readonly overlap: Column;
  readonly residual: Column;
  private readonly e2eOrdinal: number;
  private readonly overlapOrdinal: number;
  private readonly residualOrdinal: number;
  readonly clock: LogClock;
  /** Others of its server boot in flight (overall and per stage) when each request arrived. */
  readonly inFlight = new InFlightCounts();
  private timesKnown = 0;
  private readonly followers: IndexFollower[] = [];
  readonly live: boolean;

  constructor(options: ExplainIndexOptions = {}) {
    this.clock = new LogClock(options.year ?? new Date().getUTCFullYear());
    this.live = options.live === true;
    this.overlap = namedColumn(this.arena, 'overlap');
    this.residual = namedColumn(this.arena, 'residual');
    this.e2eOrdinal = this.arena.ordinal('t:e2e');
    this.overlapOrdinal = this.arena.ordinal('overlap');
    this.residualOrdinal = this.arena.ordinal('residual');
  }

  get length(): number {
    return this.ids.length;
  }

  /** Adds the next request (in the order of the session's requests); fallbackFinishMs when its log line has no timestamp. */
  add(request: AnalyzedRequest, fallbackFinishMs = Number.NaN): RequestBreakdown {
    const row = this.ids.length;
    const breakdown = breakdownOf(request);
    this.ids.push(request.requestId);
    for (const s of request.stages) if (prefillCoversDecode(request, s)) this.oneOutput.add(s.stageKey);
    this.bootCold.push(request.boot * 2 + (request.cold ? COLD : 0));
    const server = this.addServer(row, request.server, request.boot);
    const logged = this.clock.midpoint(request.timestamp);
    const finish = logged ?? fallbackFinishMs;
    // A finish from the log is known to its printed second; the fallback (the capture's time) to the ms.
    const resolutionMs = logged === null ? 0 : LOG_RESOLUTION_MS;
    this.finish.push(finish);
    if (Number.isFinite(finish)) this.timesKnown += 1;

    const rowValues = this.rowValues;
    rowValues.start();
    const put = (ordinal: number, v: number | null | undefined): void => {
      if (v !== null && v !== undefined && Number.isFinite(v)) rowValues.set(ordinal, v);
    };
    for (const p of breakdown.parts) {
      // Its rest of gen time holds an unmeasured prefill or decode (breakdown.ts): which
      // requests is kept, since a first output inside that time has no known place there.
      if (p.withUnmeasuredPhases && p.stageKey !== null) {
        this.unsplit.add(p.stageKey);
        put(this.named('u:', p.stageKey), 1);
      }
      if (p.ms === null) continue;
      let ordinal = this.partOrdinals.get(p.key);
      if (ordinal === undefined) {
        this.partMetas.set(p.key, {
          key: p.key,
          stageKey: p.stageKey,
          stageId: p.stageId,
          phase: p.phase,
          edge: p.edge,
          component: p.component,
        });
        this.partOrder = null;
        ordinal = this.named('p:', p.key);
        this.partOrdinals.set(p.key, ordinal);
      }
      put(ordinal, p.ms);
    }
    put(this.overlapOrdinal, breakdown.overlapMs);
    put(this.residualOrdinal, breakdown.residualMs);
    for (const t of targetsOf(request, breakdown.totalMs)) {
      this.targetNames.add(t.name);
      put(this.named('t:', t.name), targetValue(request, t, breakdown.totalMs));
    }
    const arrival = breakdown.totalMs === null ? Number.NaN : finish - breakdown.totalMs;
    const spans: { stageKey: string; start: number; end: number }[] = [];
    const firstStageId = firstStageIdOf(request.stages);
    for (const span of breakdown.stageSpans) {
      let ordinals = this.stageOrdinals.get(span.stageKey);
      if (ordinals === undefined) {
        this.stageMetas.set(span.stageKey, { stageKey: span.stageKey, stageId: span.stageId });
        this.stageOrder = null;
        const prefix = `s:${span.stageKey}:`;
        ordinals = {
          start: this.named(prefix, 'start'),
          end: this.named(prefix, 'end'),
          tokensIn: this.named(prefix, 'in'),
          tokensOut: this.named(prefix, 'out'),
          alongsideUpstream: this.named(prefix, 'along'),
          preemptions: this.named(prefix, 'preempt'),
          ttftWaitedUpstream: this.named(prefix, 'ttftWait'),
        };
        this.stageOrdinals.set(span.stageKey, ordinals);
      }
      const stage = request.stages.find((s) => s.stageKey === span.stageKey);
      put(ordinals.start, span.startMs);
      put(ordinals.end, span.endMs);
      if (span.alongsideUpstream !== null) put(ordinals.alongsideUpstream, span.alongsideUpstream ? 1 : 0);
      // Hidden rows stay unknown (zero or not measured), never 0 tokens.
      if (stage !== undefined) {
        put(ordinals.tokensIn, tokensInOf(stage, firstStageId));
        put(ordinals.tokensOut, tokensOutOf(stage));
        put(ordinals.preemptions, numberOf(stage.fields, 'vllm_num_preemptions'));
        put(ordinals.ttftWaitedUpstream, ttftUpstreamWaitMs(request, stage, firstStageId));
      }
      spans.push({ stageKey: span.stageKey, start: arrival + span.startMs, end: arrival + span.endMs });
    }
    this.arena.addRow(rowValues.ordinals(), rowValues.count, rowValues.values);
    // Requests of different servers of a merged log never wait for each other: each server's
    // boots keep their own times (server ordinals and boots both stay far below 2^26).
    const process = server < 0 ? request.boot : (server + 1) * 2 ** 26 + request.boot;
    this.inFlight.add(row, process, arrival, finish, Number.isFinite(arrival) ? spans : [], resolutionMs);
    for (const f of this.followers) f.add(row);
    return breakdown;
  }

  /** Records row `row`'s server (undefined: no tag); returns its ordinal, -1 without one. */
  private addServer(row: number, server: string | undefined, boot: number): number {
    if (server === undefined) {
      this.rowServers?.push(-1);
      this.untaggedRequests += 1;
      return -1;
    }
    let ordinal = this.serverOrdinals.get(server);
    if (ordinal === undefined) {
      ordinal = this.serverNames.length;
      this.serverNames.push(server);
      this.serverOrdinals.set(server, ordinal);
      this.serverRequests.push(0);
      this.serverBootRequests.push(new Map<number, number>());
    }
    this.serverRequests[ordinal] += 1;
    const boots = this.serverBootRequests[ordinal] as Map<number, number>;
    boots.set(boot, (boots.get(boot) ?? 0) + 1);
    if (this.rowServers === null) this.rowServers = new Array<number>(row).fill(-1);
    this.rowServers.push(ordinal);
    return ordinal;
  }

  /** The ordinal of a merged log's server by its tag; -2 (no row's) for a name no request has. */
  serverOrdinalOf(server: string): number {
    return this.serverOrdinals.get(server) ?? -2;
  }

  /** Row i's server ordinal; -1 when its request named no server. */
  serverOrdinal(i: number): number {
    return this.rowServers === null ? -1 : (this.rowServers[i] ?? -1);
  }

  /** How many servers of a merged log have requests (0: a log of one server). */
  get serverCount(): number {
    return this.serverNames.length;
  }

  /** A merged log's servers by name with their requests, and the requests of no server's tag; no server: an empty list. */
  serverCounts(): { readonly servers: { server: string; requests: number }[]; readonly untagged: number } {
    const servers = this.serverNames
      .map((server, i) => ({ server, requests: this.serverRequests[i] ?? 0 }))
      .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
    return { servers, untagged: this.untaggedRequests };
  }

  /** The requests of one server of a merged log per boot, in boot order; empty for a name no request has. */
  serverBoots(server: string): { readonly boot: number; readonly requests: number }[] {
    const ordinal = this.serverOrdinals.get(server);
    const boots = ordinal === undefined ? undefined : this.serverBootRequests[ordinal];
    return [...(boots ?? [])].sort((a, b) => a[0] - b[0]).map(([boot, requests]) => ({ boot, requests }));
  }

  /** Row i's server (its tag); undefined when its request named none. */
  server(i: number): string | undefined {
    const ordinal = this.serverOrdinal(i);
    return ordinal < 0 ? undefined : this.serverNames[ordinal];
  }

  /** The arena's ordinal of `prefix + name`, looked up without concatenating them each time. */
  private named(prefix: string, name: string): number {
    let byName = this.ordinalsByPrefix.get(prefix);
    if (byName === undefined) this.ordinalsByPrefix.set(prefix, (byName = new Map<string, number>()));
    let ordinal = byName.get(name);
    if (ordinal === undefined) {
      ordinal = this.arena.ordinal(prefix + name);
      byName.set(name, ordinal);
    }
    return ordinal;
  }

  /** Feeds `follower` every request added from now on. */
  follow(follower: IndexFollower): void {
    this.followers.push(follower);
  }

  requestId(i: number): string {
    return this.ids[i] ?? '';
  }

  boot(i: number): number {
    return ((this.bootCold[i] ?? 0) - this.isCold(i)) / 2;
  }

  isCold(i: number): 0 | 1 {
    return ((this.bootCold[i] ?? 0) & COLD) as 0 | 1;
  }

  /** Finish time on the log clock (ms; the printed second + 0.5 s), or the fallback; NaN when unknown. */
  finishMs(i: number): number {
    return this.finish.get(i);
  }

  /** Arrival = finish - the request's total (e2e_total_ms); NaN when either is unknown. */
  arrivalMs(i: number): number {
    return this.finish.get(i) - this.arena.get(i, this.e2eOrdinal);
  }

  /** Requests with a finish time. */
  get timedCount(): number {
    return this.timesKnown;
  }

  /** Every part seen, in a request's time order (preprocess, stages with their hand-offs in, final output). */
  parts(): readonly PartColumns[] {
    return (this.partOrder ??= [...this.partMetas.values()]
      .sort(comparePartMeta)
      .map((meta) => this.partColumns(meta)));
  }

  private partColumns(meta: PartMeta): PartColumns {
    const ms = namedColumn(this.arena, `p:${meta.key}`);
    return { meta, ms, start: this.startColumn(meta, ms) };
  }

  /** Where a part starts in each request: as breakdown.ts placed it, from numbers the arena keeps. */
  private startColumn(meta: PartMeta, ms: Column): Column {
    const nan = derivedColumn(() => Number.NaN);
    if (meta.phase === 'preprocess') return derivedColumn((i) => (Number.isNaN(ms.get(i)) ? Number.NaN : 0));
    if (meta.phase === 'finalOutput') {
      const total = namedColumn(this.arena, 't:e2e');
      return derivedColumn((i) => total.get(i) - ms.get(i));
    }
    if (meta.phase === 'transfer' || meta.stageKey === null) return nan;
    const stageStart = namedColumn(this.arena, `s:${meta.stageKey}:start`);
    const before = PHASE_ORDER.slice(0, PHASE_ORDER.indexOf(meta.phase)).map((phase) =>
      namedColumn(this.arena, `p:${meta.stageKey}/${phase}`),
    );
    return derivedColumn((i) => {
      const own = ms.get(i);
      if (!(own >= 0)) return Number.NaN;
      let t = stageStart.get(i);
      for (const c of before) {
        const v = c.get(i);
        if (v >= 0) t += v;
      }
      return t;
    });
  }

  target(name: TargetName): Column | undefined {
    return this.targetNames.has(name) ? namedColumn(this.arena, `t:${name}`) : undefined;
  }

  /** Targets seen in some request, in a stable order. */
  targets(): TargetName[] {
    return [...this.targetNames].sort(compareTargets);
  }

  /** Whether the stage's rest of gen time holds an unmeasured prefill or decode in some request. */
  holdsUnmeasuredPhases(stageKey: string): boolean {
    return this.unsplit.has(stageKey);
  }

  /** 1 in the requests whose rest of gen time of the stage holds an unmeasured prefill or decode (NaN elsewhere); undefined when none. */
  unsplitRows(stageKey: string): Column | undefined {
    return this.unsplit.has(stageKey) ? namedColumn(this.arena, `u:${stageKey}`) : undefined;
  }

  /** The stages whose prefill part covers their decode steps in some request, in stage order. */
  oneOutputStages(): readonly string[] {
    return this.stages()
      .map((s) => s.stageKey)
      .filter((key) => this.oneOutput.has(key));
  }

  stages(): readonly StageColumns[] {
    return (this.stageOrder ??= [...this.stageMetas.values()]
      .sort((a, b) => compareStageKeys(a.stageKey, b.stageKey))
      .map((m) => ({
        stageKey: m.stageKey,
        stageId: m.stageId,
        start: namedColumn(this.arena, `s:${m.stageKey}:start`),
        end: namedColumn(this.arena, `s:${m.stageKey}:end`),
        tokensIn: namedColumn(this.arena, `s:${m.stageKey}:in`),
        tokensOut: namedColumn(this.arena, `s:${m.stageKey}:out`),
        alongsideUpstream: namedColumn(this.arena, `s:${m.stageKey}:along`),
        preemptions: namedColumn(this.arena, `s:${m.stageKey}:preempt`),
        ttftWaitedUpstream: namedColumn(this.arena, `s:${m.stageKey}:ttftWait`),
      })));
  }

  /** Bytes held (typed arrays and side maps; the id strings are shared with the request store). */
  get bytes(): number {
    let followers = 0;
    for (const f of this.followers) followers += f.bytes;
    return (
      this.arena.bytes +
      this.finish.bytes +
      this.bootCold.length * 8 +
      (this.rowServers?.length ?? 0) * 8 +
      this.ids.length * 8 +
      this.inFlight.bytes +
      followers
    );
  }
}

/**
 * One request's values by column ordinal, gathered before the row is stored: a later value
 * for the same ordinal replaces the earlier one.
 * Its buffers are reused from request to request.
 */
class RowValues {
  /** Value by ordinal (valid for the ordinals set since start()). */
  values = new Float64Array(64);
  private mark = new Int32Array(64);
  private generation = 0;
  private readonly touched: number[] = [];
  /** Ordinals set since start(): touched[0..count). */
  count = 0;

  start(): void {
    this.generation += 1;
    this.count = 0;
  }

  set(ordinal: number, v: number): void {
    if (ordinal >= this.values.length) {
      const size = Math.max(ordinal + 1, this.values.length * 2);
      const values = new Float64Array(size);
      values.set(this.values);
      const mark = new Int32Array(size);
      mark.set(this.mark);
      this.values = values;
      this.mark = mark;
    }
    if (this.mark[ordinal] !== this.generation) {
      this.mark[ordinal] = this.generation;
      this.touched[this.count++] = ordinal;
    }
    this.values[ordinal] = v;
  }

  /** The ordinals set since start() (the first `count`), in the order first set (the same for every request of one shape). */
  ordinals(): readonly number[] {
    return this.touched;
  }
}

/**
 * A stage's num_tokens_in as a count of its input tokens, or undefined. vLLM-Omni counts the prompt
 * tokens on the first stage only and prints 0 on every later one: that 0 is the field's default,
 * not a count (a stage fed by another always has input), so it is no point of a cost per token.
 */
function tokensInOf(stage: AnalyzedRequest['stages'][number], firstStageId: number): number | undefined {
  const v = numberOf(stage.fields, 'num_tokens_in');
  return v === 0 && stage.stageId !== null && stage.stageId > firstStageId ? undefined : v;
}

/**
 * A stage's num_tokens_out as a count of the tokens it made, or undefined. vLLM-Omni counts the
 * generated token ids (or vLLM's native count); a codec stage (code2wav) makes audio, not token
 * ids, and prints 0 in builds without a native count. A 0 on a stage that produced output (output
 * units, audio frames, a first output) is the field's default, not a count: no point of a cost per token.
 */
function tokensOutOf(stage: AnalyzedRequest['stages'][number]): number | undefined {
  const v = numberOf(stage.fields, 'num_tokens_out');
  return v === 0 && producedOutput(stage.fields) ? undefined : v;
}
