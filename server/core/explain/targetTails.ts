// A target's tails at one quantile, over the scope or one per boot, with the scopes where only
// one request measured the target set apart: that request is its own median, so a tail of it
// reads +0 ms in every part and explains nothing. explain and the language server both split
// them here, so neither the CLI nor a view shows a one-request target as a tail.
import type { ColumnReads } from './columnReads';
import type { ExplainIndex } from './explainIndex';
import { tailAttribution } from './tailAttribution';
import type { OneRequestTarget, TailAttribution, TailQuantile, TargetName, ExplainScope } from './types';

export interface TargetTails {
  readonly tails: TailAttribution[];
  readonly oneRequest: OneRequestTarget[];
}

/** `boots`: [undefined] for the scope as a whole, else one attribution per boot. Scopes where no request measured the target are in neither list. */
export function targetTails(
  index: ExplainIndex,
  target: TargetName,
  quantile: TailQuantile,
  scope: ExplainScope,
  boots: readonly (number | undefined)[],
  reads?: ColumnReads,
): TargetTails {
  const tails: TailAttribution[] = [];
  const oneRequest: OneRequestTarget[] = [];
  for (const boot of boots) {
    const entry = tailAttribution(
      index,
      { target, quantile, scope: boot === undefined ? scope : { ...scope, boot } },
      reads,
    );
    if (entry === null) continue;
    if (entry.scopeCount === 1)
      oneRequest.push({
        target,
        ...(boot === undefined ? {} : { boot }),
        requestId: entry.requestIds[0] ?? '',
        valueMs: entry.targetMedianMs,
      });
    else tails.push(entry);
  }
  return { tails, oneRequest };
}
