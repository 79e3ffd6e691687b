// The two runs' tails in words and rows, for the terminal table, the markdown report and
// the Compare panel (no analysis here: formatting of a TailComparison).
import { ONE_REQUEST_NO_TAIL, oneRequestText, partLabel, targetLabel } from '../explain/explainTable';
import { additiveTail, overlapText, type AdditiveTail } from '../explain/overlapApart';
import { stageLabel } from '../stageRoles';
import { sentenceCase } from '../sentenceCase';
import type { TailAttribution, TailPart } from '../explain/types';
import { alignedTable } from './format';
import type { TailComparison } from './types';
import { durationText, signedDurationText as ms } from '../numberText';

/** What a cell says for a part the run has but did not measure (its reason is in tailNotes). */
export const NOT_MEASURED_CELL = 'not measured';

type NamedPart = Pick<TailPart, 'key' | 'stageKey' | 'phase' | 'edge' | 'component' | 'withUnmeasuredPhases'>;

/**
 * Rows of the two runs' top parts, part by part (the union of each run's top `n`, then the parts a
 * run did not measure); none when neither run has a tail. A run without one (one request, or none,
 * measured the target) reads – in every row.
 */
export function tailRows(t: TailComparison, n = 5): { label: string; baseline: string; candidate: string }[] {
  if (t.baseline === null && t.candidate === null) return [];
  const keys: string[] = [];
  const add = (key: string): void => {
    if (!keys.includes(key)) keys.push(key);
  };
  // Each run's parts behind an overlap (additiveTail) are shown apart: after the parts, no share.
  const additive = (side: TailAttribution | null) => (side === null ? null : additiveTail(side));
  const baseline = additive(t.baseline);
  const candidate = additive(t.candidate);
  const apartKeys = (side: AdditiveTail | null): Set<string> => new Set(side?.apart.map((a) => a.part.key) ?? []);
  const apart = { baseline: apartKeys(baseline), candidate: apartKeys(candidate) };
  for (const side of [baseline, candidate]) for (const p of side?.parts.slice(0, n) ?? []) add(p.key);
  for (const side of [t.baseline, t.candidate]) for (const p of side?.notMeasured ?? []) add(p.key);
  for (const key of [...apart.baseline, ...apart.candidate]) add(key);
  const cell = (side: TailAttribution | null, key: string): string => {
    if (side?.notMeasured?.some((x) => x.key === key) === true) return NOT_MEASURED_CELL;
    const added = side === t.baseline ? baseline : candidate;
    // A part partly apart (its time within its upstream's) shows what is added, and what is apart.
    const p = added?.parts.find((x) => x.key === key);
    const away = added?.apart.find((x) => x.part.key === key);
    if (p === undefined && away === undefined) return '–';
    if (p === undefined) return `${ms(away?.part.excessMs ?? 0)} (apart)`;
    const share = `${ms(p.excessMs)}${p.share === null ? '' : ` (${Math.round(p.share * 100)}%)`}`;
    return away === undefined ? share : `${share}, ${ms(away.part.excessMs)} apart`;
  };
  const labelIn = (side: TailAttribution | null, key: string): string | null => {
    const part: NamedPart | undefined =
      side?.parts.find((x) => x.key === key) ?? side?.notMeasured?.find((x) => x.key === key);
    return part === undefined ? null : partLabel(part, t.oneOutputStages ?? [], t.stageRoles);
  };
  const rows = keys.map((key) => {
    const inBaseline = labelIn(t.baseline, key);
    const inCandidate = labelIn(t.candidate, key);
    return {
      label: rowLabel(inBaseline, inCandidate),
      baseline: cell(t.baseline, key),
      candidate: cell(t.candidate, key),
    };
  });
  rows.push({
    label: 'residual',
    baseline: baseline === null ? '–' : ms(baseline.residualMs),
    candidate: candidate === null ? '–' : ms(candidate.residualMs),
  });
  return rows;
}

/** Why each "not measured" cell is not a number, one sentence per cell. */
export function tailNotes(t: TailComparison): string[] {
  const notes: string[] = [];
  for (const [role, side] of [
    ['baseline', t.baseline],
    ['candidate', t.candidate],
  ] as const)
    for (const p of side?.notMeasured ?? [])
      notes.push(
        `${role}, ${partLabel(p, t.oneOutputStages ?? [], t.stageRoles)}: ${NOT_MEASURED_CELL}. ${sentenceCase(p.reason)}; its time is in the residual, and no difference is taken against it.`,
      );
  for (const [role, side] of [
    ['baseline', t.baseline],
    ['candidate', t.candidate],
  ] as const) {
    const text =
      side === null
        ? null
        : overlapText(additiveTail(side).apart, {
            part: (p) => partLabel(p, t.oneOutputStages ?? [], t.stageRoles),
            stage: (key) => stageLabel(key, t.stageRoles ?? {}),
            signed: ms,
          });
    if (text !== null) notes.push(`${role}, apart: ${text}. Not in the shares nor the residual.`);
  }
  return notes;
}

/**
 * One part named as each run has it: the same part can be "rest of gen time" where the stage's
 * prefill and decode are measured and "gen time not split" where they are not.
 */
function rowLabel(inBaseline: string | null, inCandidate: string | null): string {
  if (inBaseline === null || inCandidate === null || inBaseline === inCandidate)
    return inCandidate ?? inBaseline ?? '?';
  const stage = /^stage \S+ (\u00b7 \S+ )?/.exec(inBaseline)?.[0] ?? '';
  const baselineWords = inBaseline.startsWith(stage) ? inBaseline.slice(stage.length) : inBaseline;
  return `${inCandidate} · baseline: ${baselineWords}`;
}

/** The table/terminal block: the sentence, each run's tail, the parts side by side. */
export function tailTableLines(t: TailComparison): string[] {
  const rows = tailRows(t);
  return [
    `Tail, p99 of ${targetLabel(t.target, t.stageRoles)}: ${t.sentence}`,
    `  baseline:  ${tailSideText(t, 'baseline')}`,
    `  candidate: ${tailSideText(t, 'candidate')}`,
    ...(rows.length === 0
      ? []
      : alignedTable(
          ['part', 'baseline excess', 'candidate excess'],
          rows.map((r) => [r.label, r.baseline, r.candidate]),
          1,
        )),
    ...tailNotes(t).map((note) => `  ${note}`),
  ];
}

/**
 * A run's tail in a line: "1 of 96 requests ≥ 3.80 s, +3.90 s over the median 96.7 ms"; for a run
 * where one request alone measured the target, explain's sentence for it, with its value.
 */
export function tailSideText(t: TailComparison, side: 'baseline' | 'candidate'): string {
  const one = t.oneRequest[side];
  if (one !== null) return `${oneRequestText(one, t.stageRoles ?? {})} ${ONE_REQUEST_NO_TAIL}.`;
  const tail = t[side];
  if (tail === null) return 'not measured';
  return `${tail.requestCount} of ${tail.scopeCount} requests ≥ ${durationText(tail.thresholdMs)}, ${ms(tail.excessMs)} over the median ${durationText(tail.targetMedianMs)}`;
}
