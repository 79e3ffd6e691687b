// Per stage, the distribution of each part of the breakdown over the requests in scope
// (its ms in each request: measured, inferred or reconstructed values only; the others
// are counted as missing), and of the overlap and the residual.
import type { Column, ExplainIndex } from './explainIndex';
import { rowsInScope, type RowScope } from './scope';
import { distributionInPlace } from './select';
import type { BreakdownSummary, PartDistribution } from './types';

function columnDistribution(
  column: Column,
  rows: Int32Array,
): { distribution: PartDistribution['distribution']; missing: number } {
  const values = new Float64Array(rows.length);
  column.read(rows, values);
  let n = 0;
  for (let k = 0; k < rows.length; k++) {
    const v = values[k];
    if (!Number.isNaN(v)) values[n++] = v;
  }
  return { distribution: distributionInPlace(values, n), missing: rows.length - n };
}

export function breakdownSummary(index: ExplainIndex, scope: RowScope): BreakdownSummary {
  const rows = rowsInScope(index, scope);
  const parts: PartDistribution[] = [];
  for (const p of index.parts()) {
    const { distribution, missing } = columnDistribution(p.ms, rows);
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
    overlap: columnDistribution(index.overlap, rows).distribution,
    residual: columnDistribution(index.residual, rows).distribution,
  };
}
