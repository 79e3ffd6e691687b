// Findings of two runs matched by (code, stage): which appeared, which disappeared (e.g.
// `ttft-not-recorded` gone after a build with the codec stats fix), which stayed, with
// the number of requests each concerns in each run.
import type { Severity } from '../analysis/types';
import type { FindingChange, FindingCount, FindingDiff } from './types';
import { isUnreadableInput } from '../analysis/unreadableInput';

const CHANGE_ORDER: Readonly<Record<FindingChange, number>> = { appeared: 0, disappeared: 1, persisted: 2 };
const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** All requests of each run: what a finding's request count is out of. */
export interface FindingDenominators {
  readonly baseline: number | null;
  readonly candidate: number | null;
}

export function diffFindings(
  baseline: readonly FindingCount[],
  candidate: readonly FindingCount[],
  of: FindingDenominators = { baseline: null, candidate: null },
): FindingDiff[] {
  const key = (f: FindingCount): string =>
    `${f.code}|${f.stageId ?? ''}|${f.fromScrape === true ? 'scrape' : 'log'}|${f.family ?? ''}`;
  // A compressed or binary input is a fact of the file given, not a change between the runs: the notes say it.
  const compared = (fs: readonly FindingCount[]) => fs.filter((f) => !isUnreadableInput(f));
  const b = new Map(compared(baseline).map((f) => [key(f), f]));
  const c = new Map(compared(candidate).map((f) => [key(f), f]));
  const out: FindingDiff[] = [];
  for (const k of new Set([...b.keys(), ...c.keys()])) {
    const bf = b.get(k);
    const cf = c.get(k);
    const f = (cf ?? bf) as FindingCount;
    out.push({
      code: f.code,
      stageId: f.stageId,
      severity: f.severity,
      change: bf === undefined ? 'appeared' : cf === undefined ? 'disappeared' : 'persisted',
      baselineRequests: bf?.requestCount ?? 0,
      candidateRequests: cf?.requestCount ?? 0,
      baselineOf: of.baseline,
      candidateOf: of.candidate,
      message: f.message,
      ...(f.fromScrape === true ? { fromScrape: true } : {}),
      ...(f.family === undefined ? {} : { family: f.family }),
    });
  }
  return out.sort(
    (x, y) =>
      CHANGE_ORDER[x.change] - CHANGE_ORDER[y.change] ||
      SEVERITY_ORDER[x.severity] - SEVERITY_ORDER[y.severity] ||
      (x.stageId ?? -1) - (y.stageId ?? -1) ||
      (x.code < y.code ? -1 : x.code > y.code ? 1 : 0),
  );
}
