// End-to-end time per request, over requests: `e2e_total_ms` of [RequestE2EStats] where
// printed, else the `total=` of [OmniTiming] (the same quantity, e2e_total_ms / 1000,
// printed to 10 ms), so a log without the DEBUG tables still has its end-to-end figure; in the
// format before February 2026, the `e2e_time_ms` of its request_level_metrics dict, beside
// that dict's transfer totals (transfers_total_time_ms, transfers_total_bytes). Beside it, the
// time per output token the dicts print (e2e_tpt, e2e_time_per_token_ms), without its 0.0s.
import { SampleSet } from './sampleSet';
import type { Cell } from '../values';
import { measurementOf, TIME_PER_TOKEN_FIELDS, unrecordedReason, type UnrecordedReason } from './unrecordedValues';
import type { AnalyzedRequest, EndToEndSummary, TimePerTokenSummary, TransfersTotalSummary } from './types';

const E2E_TOTAL = 'e2e_total_ms';
const LEGACY_E2E = 'e2e_time_ms';
const LEGACY_TRANSFERS_MS = 'transfers_total_time_ms';
const LEGACY_TRANSFERS_BYTES = 'transfers_total_bytes';

/** The printed e2e_total_ms when it is a time: a negative one, nan or inf is not (unrecordedValues.ts). */
export function e2eTableMs(cell: Cell | undefined): number | undefined {
  return measurementOf(E2E_TOTAL, cell);
}

/** Whether e2e_total_ms printed a number that is not a time: not recorded, never a fallback to [OmniTiming]. */
export function e2eNotRecorded(request: AnalyzedRequest): boolean {
  const cell = request.e2e[request.legacyDict === true ? LEGACY_E2E : E2E_TOTAL];
  return cell !== undefined && cell.state === 'measured' && unrecordedReason(E2E_TOTAL, cell.value) !== null;
}

/** The request's end-to-end ms and where it comes from; null when neither line printed it, or e2e_total_ms is not a time. */
export function endToEndOf(
  request: AnalyzedRequest,
): { ms: number; from: 'e2eTable' | 'omniTiming' | 'legacyDict' } | null {
  const cell = request.e2e[E2E_TOTAL];
  const ms = e2eTableMs(cell);
  if (ms !== undefined) return { ms, from: 'e2eTable' };
  if (cell !== undefined && cell.state === 'measured') return null;
  const total = request.timing?.totalS;
  if (total !== undefined && total !== null && Number.isFinite(total))
    return { ms: omniTimingTotalMs(total), from: 'omniTiming' };
  if (request.legacyDict === true) {
    const legacy = measurementOf(LEGACY_E2E, request.e2e[LEGACY_E2E]);
    if (legacy !== undefined) return { ms: legacy, from: 'legacyDict' };
  }
  return null;
}

/** [OmniTiming]'s `total=` seconds in ms, to the printed figures' 3 decimals. */
export function omniTimingTotalMs(totalS: number): number {
  return Math.round(totalS * 1000 * 1000) / 1000;
}

/** The legacy dicts' transfer totals over requests: a request without them is counted, never taken as 0. */
class TransfersTotalBuilder {
  private readonly timeMs = new SampleSet();
  private readonly kbytes = new SampleSet();
  private requests = 0;
  private printed = 0;
  private timeNotATime = 0;

  add(request: AnalyzedRequest): void {
    if (request.legacyDict !== true) return;
    this.requests += 1;
    const time = request.e2e[LEGACY_TRANSFERS_MS];
    const bytes = request.e2e[LEGACY_TRANSFERS_BYTES];
    if (time?.state === 'measured' || bytes?.state === 'measured') this.printed += 1;
    if (time?.state === 'measured') {
      const ms = measurementOf(LEGACY_TRANSFERS_MS, time);
      if (ms === undefined) this.timeNotATime += 1;
      else this.timeMs.add(ms);
    }
    if (bytes?.state === 'measured' && Number.isFinite(bytes.value) && bytes.value >= 0)
      this.kbytes.add(bytes.value / 1024);
  }

  trim(): void {
    this.timeMs.trim();
    this.kbytes.trim();
  }

  summary(): TransfersTotalSummary | undefined {
    if (this.printed === 0) return undefined;
    return {
      timeMs: this.timeMs.distribution(),
      kbytes: this.kbytes.distribution(),
      requests: this.requests,
      timeNotATime: this.timeNotATime,
    };
  }
}

/** The printed time per output token over requests: a 0.0 (no output token) is counted with its reason, never taken as 0 ms. */
class TimePerTokenBuilder {
  private readonly ms = new SampleSet();
  private requests = 0;
  private readonly notRecorded: Partial<Record<UnrecordedReason, number>> = {};

  add(request: AnalyzedRequest): void {
    for (const name of TIME_PER_TOKEN_FIELDS) {
      const cell = request.e2e[name];
      if (cell?.state !== 'measured') continue;
      this.requests += 1;
      const reason = unrecordedReason(name, cell.value);
      if (reason === null) this.ms.add(cell.value);
      else this.notRecorded[reason] = (this.notRecorded[reason] ?? 0) + 1;
      return;
    }
  }

  trim(): void {
    this.ms.trim();
  }

  summary(): TimePerTokenSummary | undefined {
    if (this.requests === 0) return undefined;
    return { ms: this.ms.distribution(), requests: this.requests, notRecorded: { ...this.notRecorded } };
  }
}

export class EndToEndBuilder {
  private readonly samples = new SampleSet();
  private fromOmniTiming = 0;
  private readonly transfers = new TransfersTotalBuilder();
  private readonly perToken = new TimePerTokenBuilder();

  add(request: AnalyzedRequest): void {
    this.transfers.add(request);
    this.perToken.add(request);
    const e2e = endToEndOf(request);
    if (e2e === null) return;
    this.samples.add(e2e.ms);
    if (e2e.from === 'omniTiming') this.fromOmniTiming += 1;
  }

  /** The sample sets' room for more samples let go (SampleSet.trim): the input ended. */
  trim(): void {
    this.samples.trim();
    this.transfers.trim();
    this.perToken.trim();
  }

  summary(): EndToEndSummary | null {
    const ms = this.samples.distribution();
    if (ms === null) return null;
    const transfersTotal = this.transfers.summary();
    const timePerToken = this.perToken.summary();
    return {
      ms,
      fromOmniTiming: this.fromOmniTiming,
      ...(transfersTotal === undefined ? {} : { transfersTotal }),
      ...(timePerToken === undefined ? {} : { timePerToken }),
    };
  }
}
