// Per stage, the distribution of each part of the breakdown over the requests in scope
// (its ms in each request: measured, inferred or reconstructed values only; the others
// are counted as missing), and of the overlap and the residual.
import type { ColumnReads } from './columnReads';
import type { Column, ExplainIndex } from './explainIndex';
import { rowsInScope } from './scope';
import { distributionInPlace, measuredInto } from './select';
import type { BreakdownSummary, PartDistribution, ExplainScope } from './types';

function columnDistribution(
  column: Column,
  rows: Int32Array,
  reads: ColumnReads | undefined,
): { distribution: PartDistribution['distribution']; missing: number } {
  const values = new Float64Array(rows.length);
  if (reads === undefined) column.read(rows, values);
  else values.set(reads.read(column, rows));
  const n = measuredInto(values, rows.length, values);
  return { distribution: distributionInPlace(values, n), missing: rows.length - n };
}

/** `reads`: column values shared with the other questions of one report. */
export function breakdownSummary(index: ExplainIndex, scope: ExplainScope, reads?: ColumnReads): BreakdownSummary {
  const rows = rowsInScope(index, scope);
  const parts: PartDistribution[] = [];
  for (const p of index.parts()) {
    const { distribution, missing } = columnDistribution(p.ms, rows, reads);
    parts.push({
      key: p.meta.key,
      stageKey: p.meta.stageKey,
      stageId: p.meta.stageId,
      phase: p.meta.phase,
      edge: p.meta.edge,
      component: p.meta.component,
      distribution,
      missing,
    });
  }
  return {
    parts,
    overlap: columnDistribution(index.overlap, rows, reads).distribution,
    residual: columnDistribution(index.residual, rows, reads).distribution,
  };
}
