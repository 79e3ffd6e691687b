// What the "why is it slow" queries read, built once per request as it arrives: the
// request's breakdown parts (ms and place on its clock), the values of every target it
// supports, its stages' spans, token counts and finish time, in typed columns (a few
// dozen 4-byte values a request). Tail attribution, load at arrival, the over-time
// series and the cost model are linear passes over these columns: no request is
// re-analysed or materialized to answer them, so a live session of 100k requests
// answers in tens of milliseconds, and each new request costs one breakdown.
import type { AnalyzedRequest } from '../analysis/types';
import { numberOf } from '../values';
import { breakdownOf, comparePartMeta } from './breakdown';
import { ScaledColumn, TimeColumn } from './columns';
import { SortedTimes } from './sortedTimes';
import { LogClock } from './logClock';
import { targetsOf, targetValue, compareTargets } from './targets';
import type { BreakdownPart, PartPhase, RequestBreakdown, TargetName, TransferComponent } from './types';

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
  readonly ms: ScaledColumn;
  /** Its start on the request's clock (NaN: not placed). */
  readonly start: ScaledColumn;
}

export interface StageColumns {
  readonly stageKey: string;
  readonly stageId: number | null;
  /** Span of the stage on the request's clock (ms from arrival). */
  readonly start: ScaledColumn;
  readonly end: ScaledColumn;
  readonly tokensIn: ScaledColumn;
  readonly tokensOut: ScaledColumn;
  /** Absolute times (log clock) the stage started and ended in every request with a known arrival. */
  readonly starts: SortedTimes;
  readonly ends: SortedTimes;
}

export interface ExplainIndexOptions {
  /** Year of the log's `MM-DD` timestamps. */
  readonly year?: number;
}

const COLD = 1;

export class ExplainIndex {
  private size = 0;
  private readonly ids: string[] = [];
  /** boot * 2 + cold */
  private readonly bootCold: number[] = [];
  private readonly finish = new TimeColumn();
  private readonly partColumns = new Map<string, PartColumns>();
  private partOrder: PartColumns[] | null = null;
  private readonly targetColumns = new Map<TargetName, ScaledColumn>();
  private readonly stageColumns = new Map<string, StageColumns>();
  readonly overlap = new ScaledColumn();
  readonly residual = new ScaledColumn();
  readonly clock: LogClock;
  /** Arrival (finish − total) and finish of every request whose both are known, for in-flight counts. */
  readonly arrivals = new SortedTimes();
  readonly finishes = new SortedTimes();
  private timesKnown = 0;

  constructor(options: ExplainIndexOptions = {}) {
    this.clock = new LogClock(options.year ?? new Date().getUTCFullYear());
  }

  get length(): number {
    return this.size;
  }

  /** Adds the next request (in the order of the session's requests); fallbackFinishMs when its log line has no timestamp. */
  add(request: AnalyzedRequest, fallbackFinishMs = Number.NaN): RequestBreakdown {
    const i = this.size;
    const breakdown = breakdownOf(request);
    this.ids.push(request.requestId);
    this.bootCold.push(request.boot * 2 + (request.cold ? COLD : 0));
    const logTime = this.clock.midpoint(request.timestamp);
    const finish = logTime ?? fallbackFinishMs;
    this.finish.push(finish);
    if (Number.isFinite(finish)) this.timesKnown += 1;
    for (const p of breakdown.parts) this.addPart(i, p);
    this.overlap.set(i, breakdown.overlapMs);
    this.residual.set(i, breakdown.residualMs);
    for (const t of targetsOf(request, breakdown.totalMs)) {
      let col = this.targetColumns.get(t.name);
      if (col === undefined) this.targetColumns.set(t.name, (col = new ScaledColumn()));
      col.set(i, targetValue(request, t, breakdown.totalMs));
    }
    const arrival = breakdown.totalMs === null ? Number.NaN : finish - breakdown.totalMs;
    if (Number.isFinite(arrival)) {
      this.arrivals.add(arrival);
      this.finishes.add(finish);
    }
    for (const span of breakdown.stageSpans) {
      const stage = request.stages.find((s) => s.stageKey === span.stageKey);
      let col = this.stageColumns.get(span.stageKey);
      if (col === undefined) {
        col = {
          stageKey: span.stageKey,
          stageId: span.stageId,
          start: new ScaledColumn(),
          end: new ScaledColumn(),
          tokensIn: new ScaledColumn(),
          tokensOut: new ScaledColumn(),
          starts: new SortedTimes(),
          ends: new SortedTimes(),
        };
        this.stageColumns.set(span.stageKey, col);
      }
      if (Number.isFinite(arrival)) {
        col.starts.add(arrival + span.startMs);
        col.ends.add(arrival + span.endMs);
      }
      col.start.set(i, span.startMs);
      col.end.set(i, span.endMs);
      // Hidden rows stay unknown (zero or not measured), never 0 tokens.
      col.tokensIn.set(i, stage === undefined ? null : (numberOf(stage.fields, 'num_tokens_in') ?? null));
      col.tokensOut.set(i, stage === undefined ? null : (numberOf(stage.fields, 'num_tokens_out') ?? null));
    }
    this.size = i + 1;
    return breakdown;
  }

  private addPart(i: number, p: BreakdownPart): void {
    if (p.ms === null) return;
    let col = this.partColumns.get(p.key);
    if (col === undefined) {
      const meta: PartMeta = { key: p.key, stageKey: p.stageKey, stageId: p.stageId, phase: p.phase, edge: p.edge, component: p.component };
      this.partColumns.set(p.key, (col = { meta, ms: new ScaledColumn(), start: new ScaledColumn() }));
      this.partOrder = null;
    }
    col.ms.set(i, p.ms);
    if (p.startMs !== null) col.start.set(i, p.startMs);
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

  /** Arrival = finish − the request's total (e2e_total_ms); NaN when either is unknown. */
  arrivalMs(i: number): number {
    return this.finish.get(i) - (this.targetColumns.get('e2e')?.get(i) ?? Number.NaN);
  }

  /** Requests with a finish time. */
  get timedCount(): number {
    return this.timesKnown;
  }

  /** Every part seen, in a request's time order (preprocess, stages with their hand-offs in, final output). */
  parts(): readonly PartColumns[] {
    return (this.partOrder ??= [...this.partColumns.values()].sort((a, b) => comparePartMeta(a.meta, b.meta)));
  }

  target(name: TargetName): ScaledColumn | undefined {
    return this.targetColumns.get(name);
  }

  /** Targets seen in some request, in a stable order. */
  targets(): TargetName[] {
    return [...this.targetColumns.keys()].sort(compareTargets);
  }

  stages(): StageColumns[] {
    return [...this.stageColumns.values()].sort((a, b) => (a.stageId ?? 0) - (b.stageId ?? 0) || (a.stageKey < b.stageKey ? -1 : 1));
  }

  /** Bytes held by the columns (typed arrays and side maps; the id strings are shared with the request store). */
  get bytes(): number {
    let n = this.finish.bytes + this.overlap.bytes + this.residual.bytes + this.bootCold.length * 8 + this.ids.length * 8;
    for (const c of this.partColumns.values()) n += c.ms.bytes + c.start.bytes;
    for (const c of this.targetColumns.values()) n += c.bytes;
    n += this.arrivals.bytes + this.finishes.bytes;
    for (const c of this.stageColumns.values()) n += c.start.bytes + c.end.bytes + c.tokensIn.bytes + c.tokensOut.bytes + c.starts.bytes + c.ends.bytes;
    return n;
  }
}
