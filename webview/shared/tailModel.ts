// Words and rows of a tail attribution for the views (side panel "Why p99 is slow", the
// Tail tab). DOM-free (unit-tested in Node). Excess and shares are the server's; the parts
// behind an overlap (a downstream wait, a stage that ran alongside its upstream) are shown
// apart and the residual without them (additiveTail, as explain does).
import type { LoadAtArrival, TailAttribution, TailPart, TargetName } from '../../server/protocol';
import {
  additiveTail,
  coldTailText,
  fewValuesTailText,
  foldParts,
  inFlightText,
  overlapText,
  partLabel,
  QUEUED_HOLDS_WAIT,
  sentenceCase,
  STAGE_LOAD_LABEL,
  stageLabel,
  stageLoadCells,
  targetLabel,
  ttftWaitText,
} from '../../server/shared';
// What a part's contribution to a first-output target is, in explain's words.
export { contributionLimit, contributionNote } from '../../server/shared';
import { formatDurationMs } from './format';
import type { StageSummary } from '../../server/protocol';

/** Stage keys whose requests print one output (MRv2 + async chunk): their prefill holds the decode steps. */
export function oneOutputStages(stages: readonly StageSummary[]): ReadonlySet<string> {
  return new Set(stages.filter((s) => s.replicaId === null && s.oneOutputRequests > 0).map((s) => s.stageKey));
}

/** "time to first audio (stage 1 · code2wav)", "stage 0 TTFT (talker)", "end-to-end time": the CLI's words. */
export function targetText(target: TargetName, stageNames: Readonly<Record<string, string>>): string {
  return targetLabel(target, stageNames);
}

/** "stage 1 · talker input wait", "0->1 tx", "preprocess"; a one-output stage's prefill is "prefill+decode (one output)". */
export interface PartName {
  readonly stageKey: string | null;
  readonly phase: TailPart['phase'];
  readonly edge?: string | null | undefined;
  readonly component?: TailPart['component'] | null;
  readonly withUnmeasuredPhases?: boolean | undefined;
}

export function partText(
  part: PartName,
  stageNames: Readonly<Record<string, string>>,
  oneOutput: ReadonlySet<string> = new Set(),
): string {
  return partLabel(
    {
      stageKey: part.stageKey,
      phase: part.phase,
      ...(part.edge == null ? {} : { edge: part.edge }),
      ...(part.component == null ? {} : { component: part.component }),
      ...(part.withUnmeasuredPhases === true ? { withUnmeasuredPhases: true as const } : {}),
    },
    [...oneOutput],
    stageNames,
  );
}

/** "stage 1 · code2wav". */
function stageText(stageKey: string | null, stageNames: Readonly<Record<string, string>>): string {
  return stageKey === null ? 'a stage' : stageLabel(stageKey, stageNames);
}

/** "+812 ms", "−40 ms". */
export function signedMs(ms: number): string {
  const text = formatDurationMs(Math.abs(ms));
  // A negative that rounds to zero reads as zero (`+0.00 ms`, as `+0 ms`), not `−0.00 ms`.
  return ms < 0 && /[1-9]/.test(text) ? `−${text}` : `+${text}`;
}

export function shareText(share: number | null): string {
  if (share === null) return '–';
  const pct = Math.round(share * 100);
  return pct < 0 ? `−${-pct}%` : `${pct}%`;
}

export interface TailRow {
  readonly key: string;
  readonly label: string;
  /** overlap: a part behind the overlap, shown apart (additiveTail): not added, no share. */
  readonly kind: 'part' | 'rest' | 'overlap' | 'residual';
  readonly excessMs: number;
  readonly share: number | null;
  /** The part's median over the requests in scope; null for rest and residual. */
  readonly medianMs: number | null;
  /** The median as shown: `median 84.9 ms`, `after the target` (see medianContributionText); '' for rest and residual. */
  readonly medianText: string;
  /** Hover of the median: what a median that is not a time means; '' when it is a time. */
  readonly medianTitle: string;
  /** Hover text: what the number is over. */
  readonly title: string;
}

const shareOf = (ms: number, total: number): number | null => (Math.abs(total) < 1e-9 ? null : ms / total);

/**
 * The `top` parts with the largest excess (and any other of 5% or more, foldParts), then the others summed, then the parts behind an
 * overlap (apart: the upstream parts' time seen from downstream), then the residual (never
 * dropped: it is what no measured part explains, negative where parts still overlap).
 */
export function tailRows(
  t: TailAttribution,
  stageNames: Readonly<Record<string, string>>,
  top: number,
  oneOutput: ReadonlySet<string> = new Set(),
): TailRow[] {
  const additive = additiveTail(t);
  const tailRequests = `${t.requestCount} tail request${t.requestCount === 1 ? '' : 's'}`;
  const { shown, folded: rest } = foldParts(additive.parts, t.excessMs, top);
  const rows: TailRow[] = shown.map((p) => {
    const median = medianContributionText(p, t.target, stageNames);
    return {
      key: p.key,
      label: partText(p, stageNames, oneOutput),
      kind: 'part',
      excessMs: p.excessMs,
      share: p.share,
      medianMs: p.medianMs,
      medianText: median.text,
      medianTitle: median.title,
      title: `${partText(p, stageNames, oneOutput)}: on average ${signedMs(p.excessMs)} over its median ${median.inSentence} in the ${tailRequests} (measured in ${p.measuredIn}; in the others its time is in the residual)`,
    };
  });
  if (rest.length > 0) {
    const sum = rest.reduce((a, p) => a + p.excessMs, 0);
    rows.push({
      key: 'rest',
      label: `${rest.length} other parts`,
      kind: 'rest',
      excessMs: sum,
      share: shareOf(sum, t.excessMs),
      medianMs: null,
      medianText: '',
      medianTitle: '',
      title: rest.map((p) => `${partText(p, stageNames, oneOutput)} ${signedMs(p.excessMs)}`).join('\n'),
    });
  }
  for (const { part, because, ofMs } of additive.apart) {
    const median = medianContributionText(part, t.target, stageNames);
    const why =
      because === 'inputWait'
        ? part.phase === 'queued'
          ? `It holds the wait for its input from the stages upstream, the same time as their parts above seen from downstream (${QUEUED_HOLDS_WAIT})`
          : 'It is the wait for its input from the stages upstream, the same time as their parts above seen from downstream'
        : ofMs !== undefined
          ? `${stageText(part.stageKey, stageNames)} ran alongside the stages upstream (async chunk feeds it as they produce) and went on after them: this much of its ${signedMs(ofMs)} lies within their time, the same time seen from downstream; the rest is its own, above`
          : `${stageText(part.stageKey, stageNames)} ran alongside the stages upstream (async chunk feeds it as they produce): its time lies within theirs, the same time seen from downstream`;
    rows.push({
      // A part partly apart is also among the parts above (the rest of its excess): a key of its own.
      key: ofMs === undefined ? part.key : `${part.key}:withinUpstream`,
      label: `${partText(part, stageNames, oneOutput)}${ofMs === undefined ? '' : ', within upstream'}`,
      kind: 'overlap',
      excessMs: part.excessMs,
      share: null,
      medianMs: part.medianMs,
      medianText: median.text,
      medianTitle: median.title,
      title: `${partText(part, stageNames, oneOutput)}: on average ${signedMs(part.excessMs)} over its median ${median.inSentence} in the ${tailRequests}. ${why}: shown apart, not added to them, no share.`,
    });
  }
  // A residual a few percent below 0 is rounding and timing noise, not parts that overlap.
  const overlapping = additive.residualMs < -0.05 * Math.abs(t.excessMs);
  rows.push({
    key: 'residual',
    label: overlapping ? 'residual (overlap)' : 'residual',
    kind: 'residual',
    excessMs: additive.residualMs,
    share: shareOf(additive.residualMs, t.excessMs),
    medianMs: null,
    medianText: '',
    medianTitle: '',
    title: overlapping
      ? "Negative: parts overlap in time (a downstream stage waits for its input while the upstream stage works), so their excesses add up to more than the target's."
      : (residualCause(t, additive.residualMs, stageNames) ??
        'What no measured part explains (final output, orchestration, gaps between stages, parts not measured in some tail requests).'),
  });
  return rows;
}

/** A positive residual that holds a downstream TTFT's wait upstream, named as explain names it; null otherwise. */
function residualCause(
  t: TailAttribution,
  residualMs: number,
  stageNames: Readonly<Record<string, string>>,
): string | null {
  if (!(residualMs > 0)) return null;
  const text = ttftWaitText(t, stageNames, (name) => sentenceCase(targetLabel(name, stageNames)));
  return text === null ? null : `${sentenceCase(text)}.`;
}

/** A part whose contribution no tail request measured: named, with why, never a number. */
export interface NotMeasuredRow {
  readonly key: string;
  readonly label: string;
  /** Hover: why it is not measured, and where its time went. */
  readonly title: string;
  /** The same in the words of explain's note under its table, shown under the bars. */
  readonly note: string;
}

export function notMeasuredRows(
  t: TailAttribution,
  stageNames: Readonly<Record<string, string>>,
  oneOutput: ReadonlySet<string> = new Set(),
): NotMeasuredRow[] {
  return (t.notMeasured ?? []).map((p) => ({
    key: p.key,
    label: partText(p, stageNames, oneOutput),
    title: `Not measured: ${p.reason}. Its time is in the residual.`,
    note: `Not measured: ${p.reason}; its time is in the residual.`,
  }));
}

/**
 * A part's median contribution in words. Under a first-output target a part counts only for
 * its time before the target's end; a part that mostly lies wholly after it has a median of
 * 0 that is no measurement of the part (it took time, just later), so it is never "0 ms".
 */
export function medianContributionText(
  p: Pick<TailPart, 'medianMs' | 'afterTarget'>,
  target: TargetName,
  stageNames: Readonly<Record<string, string>>,
): { text: string; title: string; inSentence: string } {
  const a = p.afterTarget;
  if (a === undefined)
    return { text: `median ${formatDurationMs(p.medianMs)}`, title: '', inSentence: formatDurationMs(p.medianMs) };
  const where = `in ${a.requests} of the ${a.of} requests that measured it, it lies wholly after ${targetText(target, stageNames)} ends`;
  return {
    text: 'after the target',
    title: `Median: none of this part counts toward the target: ${where}, so nothing of it falls before the target's end. Not a 0 ms measurement; the excess is its time before the target's end in the tail requests.`,
    inSentence: `(none of it before the target's end: ${where})`,
  };
}

/**
 * With a negative residual (parts that overlap in time), the sentence that names the parts set
 * apart and why (additiveTail: a downstream wait, or the waits along a chain of stages, that is
 * the overlap; a downstream stage that ran alongside its upstream under async chunk). Null when
 * it names none.
 */
export function tailOverlapNote(
  t: TailAttribution,
  stageNames: Readonly<Record<string, string>>,
  oneOutput: ReadonlySet<string> = new Set(),
): string | null {
  const text = overlapText(additiveTail(t).apart, {
    part: (p) => partText(p, stageNames, oneOutput),
    stage: (key) => stageText(key, stageNames),
    signed: signedMs,
  });
  return text === null ? null : `${text}; shown apart and not added to them (no share; the residual leaves it out).`;
}

/**
 * "3 of 312 requests at or above 1.84 s (p99) are on average +1.2 s above the median 410 ms.";
 * one request has no average: "1 of 6 requests is at or above 3.80 s (p99), +3.90 s above …".
 */
export function tailHeadline(t: TailAttribution): string {
  const boot = t.boot === undefined ? '' : `Boot ${t.boot}: `;
  const threshold = `${formatDurationMs(t.thresholdMs)} (${t.quantile})`;
  const excess = `${signedMs(t.excessMs)} above the median ${formatDurationMs(t.targetMedianMs)}`;
  return t.requestCount === 1
    ? `${boot}1 of ${t.scopeCount} requests is at or above ${threshold}, ${excess}.`
    : `${boot}${t.requestCount} of ${t.scopeCount} requests at or above ${threshold} are on average ${excess}.`;
}

/** The caveat of a tail from too few values, as a sentence; null when there are enough. */
export function tailFewValuesNote(t: TailAttribution): string | null {
  const few = fewValuesTailText(t);
  return few === null ? null : `${sentenceCase(few)}.`;
}

/** How many tail requests are cold (the first after a server boot), as explain says it; null when none is. */
export function tailColdNote(t: TailAttribution): string | null {
  const cold = coldTailText(t);
  if (cold === null) return null;
  return `${sentenceCase(cold.text)}.${cold.dominates ? ' Exclude cold (Latency Details) leaves them out.' : ''}`;
}

/** No tail to explain: every request in scope took about the same. */
export function tailIsFlat(t: TailAttribution): boolean {
  return Math.abs(t.excessMs) < 1e-6;
}

/**
 * The load at arrival's figures as explain prints them: the mean others in flight, overall and in
 * each stage, all requests against the tail, to one decimal ('–' where none is known).
 */
export interface LoadFigures {
  /** `Mean in flight at arrival, all / tail: 1.2 / 3.0`. */
  readonly inFlight: string;
  /** The stage table's title: `Mean in each stage at arrival, all / tail`. */
  readonly stagesTitle: string;
  readonly stages: readonly { readonly stage: string; readonly all: string; readonly tail: string }[];
}

export function loadFigures(load: LoadAtArrival, stageNames: Readonly<Record<string, string>>): LoadFigures {
  return {
    inFlight: sentenceCase(inFlightText(load, '–')),
    stagesTitle: sentenceCase(STAGE_LOAD_LABEL),
    stages: stageLoadCells(load, stageNames).map((s) => ({ stage: s.stage, all: s.all ?? '–', tail: s.tail ?? '–' })),
  };
}
