// The breakdown of one request as `analyze --format json` writes it (requests[].breakdown):
// the parts with their states and places, without the per-part notes and rules (their
// texts are in docs/breakdown.md; RequestDetail carries them whole). Computed values are
// rounded to the log's 3 decimals: sums and differences of printed values, whose float
// noise (8521.117000000001) is not information.
import type { BreakdownPart, PartPhase, PartState, RequestBreakdown, TransferComponent } from './types';

export interface BreakdownPartJson {
  readonly key: string;
  readonly stageKey: string | null;
  readonly stageId: number | null;
  readonly phase: PartPhase;
  readonly edge?: string;
  readonly component?: TransferComponent;
  /** null unless measured, inferred or reconstructed. */
  readonly ms: number | null;
  readonly state: PartState;
  /** Present when the part is placed on the request's clock (ms from arrival). */
  readonly startMs?: number;
  readonly endMs?: number;
  readonly placement?: 'measured' | 'reconstructed';
}

export interface BreakdownJson {
  readonly totalMs: number | null;
  readonly totalSource: RequestBreakdown['totalSource'];
  /** totalMs = Σ parts' ms − overlapMs + residualMs */
  readonly overlapMs: number;
  readonly overlapPlacement: RequestBreakdown['overlapPlacement'];
  readonly residualMs: number | null;
  readonly parts: readonly BreakdownPartJson[];
}

export const round3 = (v: number): number => Math.round(v * 1000) / 1000;
export const round3OrNull = (v: number | null): number | null => (v === null ? null : round3(v));

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

// Built by assignment in the order of the interface (which is the order JSON.stringify
// writes), not by spreading optional parts in: a part per stage and phase of every request.
function partJson(p: BreakdownPart): BreakdownPartJson {
  const out: Partial<Mutable<BreakdownPartJson>> = {
    key: p.key,
    stageKey: p.stageKey,
    stageId: p.stageId,
    phase: p.phase,
  };
  if (p.edge !== null) out.edge = p.edge;
  if (p.component !== null) out.component = p.component;
  out.ms = round3OrNull(p.ms);
  out.state = p.state;
  if (p.startMs !== null && p.endMs !== null && p.placement !== null) {
    out.startMs = round3(p.startMs);
    out.endMs = round3(p.endMs);
    out.placement = p.placement;
  }
  return out as BreakdownPartJson;
}

export function breakdownJson(b: RequestBreakdown): BreakdownJson {
  return {
    totalMs: round3OrNull(b.totalMs),
    totalSource: b.totalSource,
    overlapMs: round3(b.overlapMs),
    overlapPlacement: b.overlapPlacement,
    residualMs: round3OrNull(b.residualMs),
    parts: b.parts.map(partJson),
  };
}
