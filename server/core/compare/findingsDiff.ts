// Findings of two runs matched by (code, stage): which appeared, which disappeared (e.g.
// `ttft-not-recorded` gone after a build with the codec stats fix), which stayed, with
// the number of requests each concerns in each run. A finding one run could not show (read
// from stats tables that run never printed, from a log or scrape it does not have, from a
// /metrics family its scrape was cut short inside or before) is "not checkable" there, never
// gone or new.
import type { Severity } from '../analysis/types';
import type { FindingChange, FindingCount, FindingDiff } from './types';
import { isUnreadableInput } from '../analysis/unreadableInput';

const CHANGE_ORDER: Readonly<Record<FindingChange, number>> = {
  appeared: 0,
  disappeared: 1,
  persisted: 2,
  notCheckableInCandidate: 3,
  notCheckableInBaseline: 4,
};
const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** All requests of each run: what a finding's request count is out of. */
export interface FindingDenominators {
  readonly baseline: number | null;
  readonly candidate: number | null;
}

/** Why a run could not show a finding, or null when it could. */
export type UncheckableReason = (f: FindingCount) => string | null;

export interface FindingCheckability {
  readonly baseline: UncheckableReason;
  readonly candidate: UncheckableReason;
}

const EVERY_FINDING_CHECKABLE: FindingCheckability = { baseline: () => null, candidate: () => null };

export function diffFindings(
  baseline: readonly FindingCount[],
  candidate: readonly FindingCount[],
  of: FindingDenominators = { baseline: null, candidate: null },
  checkable: FindingCheckability = EVERY_FINDING_CHECKABLE,
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
    const notCheckable = bf === undefined ? checkable.baseline(f) : cf === undefined ? checkable.candidate(f) : null;
    const change: FindingChange =
      bf === undefined
        ? notCheckable === null
          ? 'appeared'
          : 'notCheckableInBaseline'
        : cf === undefined
          ? notCheckable === null
            ? 'disappeared'
            : 'notCheckableInCandidate'
          : 'persisted';
    out.push({
      code: f.code,
      stageId: f.stageId,
      severity: f.severity,
      change,
      baselineRequests: bf?.requestCount ?? 0,
      candidateRequests: cf?.requestCount ?? 0,
      baselineOf: of.baseline,
      candidateOf: of.candidate,
      message: f.message,
      ...(notCheckable === null ? {} : { notCheckable }),
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
