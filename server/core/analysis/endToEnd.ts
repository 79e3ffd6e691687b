// End-to-end time per request, over requests: `e2e_total_ms` of [RequestE2EStats] where
// printed, else the `total=` of [OmniTiming] (the same quantity, e2e_total_ms / 1000,
// printed to 10 ms), so a log without the DEBUG tables still has its end-to-end figure; in the
// format before February 2026, the `e2e_time_ms` of its request_level_metrics dict.
import { SampleSet } from './sampleSet';
import type { Cell } from '../values';
import { measurementOf, unrecordedReason } from './unrecordedValues';
import type { AnalyzedRequest, EndToEndSummary } from './types';

const E2E_TOTAL = 'e2e_total_ms';
const LEGACY_E2E = 'e2e_time_ms';

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

export class EndToEndBuilder {
  private readonly samples = new SampleSet();
  private fromOmniTiming = 0;

  add(request: AnalyzedRequest): void {
    const e2e = endToEndOf(request);
    if (e2e === null) return;
    this.samples.add(e2e.ms);
    if (e2e.from === 'omniTiming') this.fromOmniTiming += 1;
  }

  summary(): EndToEndSummary | null {
    const ms = this.samples.distribution();
    return ms === null ? null : { ms, fromOmniTiming: this.fromOmniTiming };
  }
}
