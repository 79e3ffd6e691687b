// A one-output stage's prefill (Model Runner V2 + async chunk: its vllm_prefill_ms covers its
// decode steps) as explain's JSON names it: `prefillDecode`, as the summary's `prefillDecodeMs` and
// compare's metric do, never `prefill` alone. The report keeps the part under its column's name
// (`<stage>/prefill`) for the views, which label it from `oneOutputStages`.
import type { BreakdownSummary, PartDistribution, PartPhase, TailAttribution, TailPart } from './types';
import { additiveTail, type ApartReason } from './overlapApart';

/** The phase of a one-output stage's prefill in the JSON. */
export const PREFILL_DECODE_PHASE = 'prefillDecode';

export type JsonPartPhase = PartPhase | typeof PREFILL_DECODE_PHASE;

type Named<T> = Omit<T, 'phase'> & { readonly phase: JsonPartPhase };

/** A part under its JSON name: `<stage>/prefillDecode` for a one-output stage's prefill. */
export function oneOutputNamed<T extends Pick<TailPart, 'key' | 'stageKey' | 'phase'>>(
  part: T,
  oneOutput: readonly string[],
): Named<T> {
  if (part.phase !== 'prefill' || part.stageKey === null || !oneOutput.includes(part.stageKey)) return part;
  return { ...part, key: `${part.stageKey}/${PREFILL_DECODE_PHASE}`, phase: PREFILL_DECODE_PHASE };
}

/**
 * A tail part in the JSON; where explain's table sets it apart as overlap (overlapApart.ts),
 * why (`apart`) and how much of its excess (`apartMs`: all of it, or the part within the upstream
 * stages' time). The table's share of a part is (excessMs − apartMs) / the target's excessMs.
 */
export type TailPartJson = Named<TailPart> & { readonly apart?: ApartReason; readonly apartMs?: number };

/**
 * `residualMs` is the attribution's (every part added); `additiveResidualMs` the table's: the
 * residual with the parts' `apartMs` given back (residualMs + Σ apartMs).
 */
export type TailAttributionJson = Omit<TailAttribution, 'parts'> & {
  readonly parts: readonly TailPartJson[];
  readonly additiveResidualMs: number;
};
export type BreakdownSummaryJson = Omit<BreakdownSummary, 'parts'> & {
  readonly parts: readonly Named<PartDistribution>[];
};

export function tailJson(t: TailAttribution, oneOutput: readonly string[]): TailAttributionJson {
  const additive = additiveTail(t);
  const apart = new Map(additive.apart.map((a) => [a.part.key, a]));
  const parts = t.parts.map((p): TailPartJson => {
    const named = oneOutputNamed(p, oneOutput);
    const a = apart.get(p.key);
    return a === undefined ? named : { ...named, apart: a.because, apartMs: a.part.excessMs };
  });
  return { ...t, parts, additiveResidualMs: additive.residualMs };
}

export function breakdownSummaryJson(b: BreakdownSummary, oneOutput: readonly string[]): BreakdownSummaryJson {
  return { ...b, parts: b.parts.map((p) => oneOutputNamed(p, oneOutput)) };
}
