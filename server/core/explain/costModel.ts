// Cost per token: per stage, an ordinary least-squares line through the per-request points
// of prefill time against input tokens (num_tokens_in) and decode time against output
// tokens (num_tokens_out; a one-output stage's prefill+decode against them too): the slope (ms per 1,000 tokens) says "long prompts", the
// intercept (a fixed floor) "slow server". A fit is shown only when the points support
// it: at least MIN_POINTS requests, at least MIN_DISTINCT_X distinct token counts, and a
// spread of x (coefficient of variation) of at least MIN_X_SPREAD, and a line that says what
// a token costs: a positive slope, an R² of at least MIN_R2 and a fixed part not below 0 beyond
// twice its standard error (no request takes negative time), over token counts that span at least
// MIN_X_RANGE (a codec's handful of chunks gives no cost per 1,000 tokens); otherwise it is listed
// as skipped with the reason. A hidden or None value is not a point (never x = 0).
import type { ColumnReads } from './columnReads';
import type { Column, ExplainIndex } from './explainIndex';
import { rowsInScope } from './scope';
import type { CostFit, CostFitSkipped, CostModel, ExplainScope } from './types';
import { countOf, durationText, groupedNumber } from '../numberText';

export const MIN_POINTS = 10;
const DECODE_IN_PREFILL =
  'vllm_decode_ms is 0 in every request: under Model Runner V2 + async chunk this stage emits one output at the end, so its prefill covers its decode steps and the slope is not a prefill cost alone';
const DECODE_NOT_MEASURED =
  'this stage emits one output, when it stops (Model Runner V2 + async chunk): its vllm_decode_ms is not a measurement, its decode steps are in its prefill+decode';
const PREFILL_DECODE_BY_OUTPUT =
  'this stage emits one output, when it stops (Model Runner V2 + async chunk): its vllm_prefill_ms is its prefill+decode, so it is fitted against the tokens it made (num_tokens_out), not its input, and the slope is a cost per output token with the prefill in the fixed part';
export const MIN_DISTINCT_X = 3;
export const MIN_X_SPREAD = 0.1;
/** Token counts span at least this many tokens: a slope over fewer, scaled to 1,000 tokens, is an extrapolation. */
export const MIN_X_RANGE = 50;
/**
 * Token counts explain at least half the time's variance. With MIN_POINTS or more points this
 * also makes the slope differ from 0 at the 5% level (t = √(R²(n−2)/(1−R²)) ≥ √8 ≈ 2.83 > 2.31).
 */
export const MIN_R2 = 0.5;

const FITS = [
  { x: 'num_tokens_in', y: 'vllm_prefill_ms', part: 'prefill', tokens: 'tokensIn' },
  { x: 'num_tokens_out', y: 'vllm_decode_ms', part: 'decode', tokens: 'tokensOut' },
] as const;

export interface Ols {
  readonly slope: number;
  readonly intercept: number;
  readonly r2: number;
  readonly n: number;
  /** The intercept's standard error (Infinity with two points: no residual degree of freedom). */
  readonly interceptSe: number;
}

/** The least-squares line y = intercept + slope·x; r2 is 1 when y has no variance and is fitted exactly. */
export function ols(xs: ArrayLike<number>, ys: ArrayLike<number>): Ols | null {
  const n = xs.length;
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i];
    my += ys[i];
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - mx;
    const dy = ys[i] - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const ssRes = syy - slope * sxy;
  const r2 = syy === 0 ? 1 : Math.max(0, Math.min(1, 1 - ssRes / syy));
  const interceptSe = n > 2 ? Math.sqrt((Math.max(0, ssRes) / (n - 2)) * (1 / n + (mx * mx) / sxx)) : Infinity;
  return { slope, intercept, r2, n, interceptSe };
}

/** Why the points do not support a fit, or null when they do. */
export function unsupported(xs: ArrayLike<number>): string | null {
  const n = xs.length;
  if (n < MIN_POINTS) return `${countOf(n, 'point')} (at least ${MIN_POINTS} needed)`;
  const distinct = new Set<number>();
  let mean = 0;
  for (let i = 0; i < n; i++) {
    // Only whether there are enough distinct values matters.
    if (distinct.size < MIN_DISTINCT_X) distinct.add(xs[i]);
    mean += xs[i];
  }
  mean /= n;
  if (distinct.size < MIN_DISTINCT_X)
    return `${countOf(distinct.size, 'distinct token count')} (at least ${MIN_DISTINCT_X} needed)`;
  let v = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    v += (xs[i] - mean) ** 2;
    min = Math.min(min, xs[i]);
    max = Math.max(max, xs[i]);
  }
  const cv = mean === 0 ? Infinity : Math.sqrt(v / n) / Math.abs(mean);
  if (cv < MIN_X_SPREAD)
    return `token counts too alike (spread ${(cv * 100).toFixed(1)}% of the mean; at least ${MIN_X_SPREAD * 100}% needed)`;
  if (max - min < MIN_X_RANGE)
    return `token counts span ${groupedNumber(min, 0, 0)}–${groupedNumber(max, 0, 0)}, too narrow a range for a cost per 1k tokens (at least ${MIN_X_RANGE} tokens needed)`;
  return null;
}

/** Why a fitted line says nothing of a cost per token, or null when it does. */
export function unfit(line: Ols): string | null {
  // The minus sign the CLI and the views use for a negative number.
  const slope = groupedNumber(line.slope * 1000, 1, 1).replace('-', '−');
  if (!(line.slope > 0))
    return `the time does not grow with the token count (slope ${slope} ms per 1k tokens, R² ${line.r2.toFixed(2)})`;
  if (line.r2 < MIN_R2)
    return `token counts explain too little of the time (R² ${line.r2.toFixed(2)}, at least ${MIN_R2} needed; slope ${slope} ms per 1k tokens)`;
  // A fixed part below 0 beyond its error says a request with few tokens takes negative time: the line does not hold there.
  if (line.intercept + 2 * line.interceptSe < 0)
    return `the fixed part is negative (−${durationText(-line.intercept)} ± ${durationText(line.interceptSe)}): the time is not a fixed part plus a cost per token (slope ${slope} ms per 1k tokens, R² ${line.r2.toFixed(2)})`;
  return null;
}

function constantY(ys: readonly number[], name: string): string | null {
  for (const y of ys) if (y !== ys[0]) return null;
  return `${name} is ${ys[0] ?? 0} ms in every request: nothing to fit${ys[0] === 0 && name === 'vllm_decode_ms' ? ' (under Model Runner V2 + async chunk a non-final stage emits one output at the end, so its decode steps are inside its prefill)' : ''}`;
}

/** `reads`: column values shared with the other questions of one report. */
export function costModel(index: ExplainIndex, scope: ExplainScope, reads?: ColumnReads): CostModel {
  const rows = rowsInScope(index, scope);
  const fits: CostFit[] = [];
  const skipped: CostFitSkipped[] = [];
  const parts = new Map([...index.parts()].map((p) => [p.meta.key, p]));
  const own = { x: new Float64Array(rows.length), y: new Float64Array(rows.length) };
  const read = (column: Column, into: Float64Array): Float64Array => {
    if (reads !== undefined) return reads.read(column, rows);
    column.read(rows, into);
    return into;
  };
  const oneOutput = new Set(index.oneOutputStages());
  for (const stage of index.stages()) {
    for (const f of FITS) {
      if (f.part === 'decode' && oneOutput.has(stage.stageKey)) {
        // Its decode is inside the prefill+decode figure: no decode points to fit.
        skipped.push({
          stageId: stage.stageId,
          stageKey: stage.stageKey,
          x: f.x,
          y: f.y,
          n: 0,
          reason: DECODE_NOT_MEASURED,
        });
        continue;
      }
      // A one-output stage's prefill+decode time is mostly its decode steps: it grows with the tokens it makes.
      const byOutput = f.part === 'prefill' && oneOutput.has(stage.stageKey);
      const x = byOutput ? 'num_tokens_out' : f.x;
      const part = parts.get(`${stage.stageKey}/${f.part}`);
      const tokens = stage[byOutput ? 'tokensOut' : f.tokens];
      const xs: number[] = [];
      const ys: number[] = [];
      if (part !== undefined) {
        const xColumn = read(tokens, own.x);
        const yColumn = read(part.ms, own.y);
        for (let k = 0; k < rows.length; k++) {
          const x = xColumn[k];
          const y = yColumn[k];
          if (Number.isNaN(x) || Number.isNaN(y)) continue;
          xs.push(x);
          ys.push(y);
        }
      }
      // A stage that never measured the phase (or never printed the token count) has no fit to skip.
      if (xs.length === 0) continue;
      const points = unsupported(xs) ?? constantY(ys, f.y);
      const fitted = points === null ? ols(xs, ys) : null;
      const why = points ?? (fitted === null ? null : unfit(fitted));
      const line = why === null ? fitted : null;
      if (line === null) {
        skipped.push({
          stageId: stage.stageId,
          stageKey: stage.stageKey,
          x,
          y: f.y,
          n: xs.length,
          reason: why ?? 'no spread in token counts',
        });
        continue;
      }
      fits.push({
        stageId: stage.stageId,
        stageKey: stage.stageKey,
        x,
        y: f.y,
        slopeMsPer1kTokens: line.slope * 1000,
        interceptMs: line.intercept,
        r2: line.r2,
        n: line.n,
      });
    }
    // A prefill that also holds the decode steps (one output, or decode measured 0 throughout) is not a prefill cost alone.
    const prefillFit = fits.find((x) => x.stageKey === stage.stageKey && x.y === 'vllm_prefill_ms');
    const decode = parts.get(`${stage.stageKey}/decode`);
    if (
      prefillFit !== undefined &&
      (oneOutput.has(stage.stageKey) || (decode !== undefined && allZero(read(decode.ms, own.y))))
    ) {
      fits[fits.indexOf(prefillFit)] = {
        ...prefillFit,
        caveat: oneOutput.has(stage.stageKey) ? PREFILL_DECODE_BY_OUTPUT : DECODE_IN_PREFILL,
      };
    }
  }
  return { fits, skipped };
}

/** Whether the values that are numbers are all 0 (and there is one). */
function allZero(values: Float64Array): boolean {
  let any = false;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    if (v !== 0) return false;
    any = true;
  }
  return any;
}
