// `stage-lens explain` for people: per target and quantile, the parts that make the tail
// slow with their mean excess and share, the residual; the load at arrival of the first
// target's tail; the cost per token; the findings that say which numbers not to trust; with
// --deploy-config, what the config sets beside what each of its findings explains.
import { countOf } from '../numberText';
import {
  STATS_LOGGER_FIX,
  STATS_TABLES_CUT_CAUSE,
  STATS_TABLES_CUT_FIX,
  STATS_TABLES_FIX,
} from '../analysis/tablesMissing';
import { windowText } from './timeWindow';
import type { Distribution } from '../analysis/types';
import type { ExplainReport } from './explainReport';
import type {
  CostFit,
  FindingCitation,
  OneRequestTarget,
  PartPhase,
  TailAttribution,
  TailPart,
  TailQuantile,
  TransferComponent,
} from './types';
import { stagePreemptionsText } from './preemptionsInTail';
import { PREFILL_DECODE_LABEL } from '../analysis/oneOutputStage';
import { durationText as ms, groupedNumber, signedDurationText as signed } from '../numberText';
import { additiveTail, overlapText } from './overlapApart';
import { tailOwnResidualMs } from './ownResidual';
import { edgeLabel } from '../edgeLabel';
import { outputsAudio, roleOfStage, stageLabel } from '../stageRoles';
import { fewValuesTailText } from './fewValuesTail';
import { inFlightText, STAGE_LOAD_LABEL, stageLoadCells } from './loadWords';
import { foldParts } from './foldParts';
import { sentenceCase } from '../sentenceCase';
import { coldTailText, ttftWaitText } from './tailCauses';
import { unreadableInputFinding } from '../analysis/unreadableInput';
import { pushAll } from '../arrays';

const PHASE_LABEL: Readonly<Record<PartPhase, string>> = {
  preprocess: 'preprocess',
  inputWait: 'input wait',
  readyQueued: 'ready queued',
  queued: 'queued',
  prefill: 'prefill',
  decode: 'decode',
  genOther: 'rest of gen time',
  transfer: 'transfer',
  finalOutput: 'final output',
};

const COMPONENT_LABEL: Readonly<Record<TransferComponent, string>> = {
  postprocess: 'postprocess',
  tx: 'tx',
  inFlight: 'in flight',
  rxDecode: 'rx decode',
};

const TOP_PARTS = 6;

/**
 * "stage 1 · talker decode", "stage 0 prefill" without roles, "0 → 1 tx". `oneOutput`: stages
 * whose prefill covers their decode steps; their prefill is named prefill+decode (one output).
 * The CLI and the views name a part with this one function.
 */
export function partLabel(
  p: Pick<TailPart, 'stageKey' | 'phase' | 'edge' | 'component' | 'withUnmeasuredPhases'>,
  oneOutput: readonly string[] = [],
  roles: Readonly<Record<string, string>> = {},
): string {
  if (p.phase === 'transfer') return `${edgeLabel(p.edge ?? '?')} ${COMPONENT_LABEL[p.component ?? 'tx']}`;
  if (p.stageKey === null) return PHASE_LABEL[p.phase];
  return `${stageLabel(p.stageKey, roles)} ${phaseWord(p, oneOutput)}`;
}

/**
 * A stage's part without the stage: a one-output prefill is prefill+decode (one output), a rest
 * of gen time that holds unmeasured phases is the gen time not split. The deploy hint's tail lead
 * names its part with it too.
 */
export function phaseWord(
  p: Pick<TailPart, 'stageKey' | 'phase' | 'withUnmeasuredPhases'>,
  oneOutput: readonly string[] = [],
): string {
  if (p.phase === 'prefill' && p.stageKey !== null && oneOutput.includes(p.stageKey)) return PREFILL_DECODE_LABEL;
  if (p.withUnmeasuredPhases === true) return UNSPLIT_GEN_LABEL;
  return PHASE_LABEL[p.phase];
}

/** A rest of gen time that holds phases the log did not measure: not overhead, the stage's unsplit work. */
export const UNSPLIT_GEN_LABEL = 'gen time not split (no prefill/decode values)';
/** Its short form, where a label must fit a narrow place (the deploy YAML's inlay hint); the tooltip has the whole. */
export const UNSPLIT_GEN_SHORT = 'gen time not split';

/** The findings that say why a stage's TTFT is not recorded. */
const TTFT_NOT_RECORDED_CODES: ReadonlySet<string> = new Set([
  'ttft-not-recorded',
  'diffusion-ttft-default',
  'ttft-no-output',
]);

/** What explain's table says beside its numbers, from outside the report. */
export interface ExplainTableOptions {
  /** A sentence about the input, said before the numbers (a deploy config whose stages are not the log's). */
  readonly inputNote?: string;
  /** What the deploy config sets that speaks to the log's findings: cited beside what each finding explains. */
  readonly citations?: readonly FindingCitation[];
}

/** The deploy config's sentence for a finding, or null when none is cited. */
type Cite = (code: string, stageId: number | null) => string | null;

/** A cited sentence as the table's notes word theirs: "the deploy config x.yaml agrees: …", without the closing period. */
function citedText(text: string): string {
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`.replace(/\.$/, '');
}

/** A target no request measured, with the finding that says why when one does (a TTFT not recorded), and what the deploy config sets about it. */
function unsupportedText(target: string, findings: ExplainReport['findings'], cite: Cite): string {
  const m = /^stage(\d+)(?:_\d+)?\.ttft$/.exec(target);
  const why =
    m === null ? undefined : findings.find((f) => TTFT_NOT_RECORDED_CODES.has(f.code) && f.stageId === Number(m[1]));
  if (why === undefined) return target;
  const cited = cite(why.code, why.stageId);
  return `${target} (its TTFT is not recorded: finding ${why.code}${cited === null ? '' : `; ${citedText(cited)}`})`;
}

/**
 * What the deploy config sets behind the parts of a tail it has a finding for: a one-output
 * stage's prefill+decode (Model Runner V2 + async chunk), once per stage.
 */
function oneOutputCitations(
  parts: readonly TailPart[],
  oneOutput: readonly string[],
  roles: Readonly<Record<string, string>>,
  cite: Cite,
): string[] {
  const out: string[] = [];
  const cited = new Set<number>();
  for (const p of parts) {
    if (p.phase !== 'prefill' || p.stageKey === null || p.stageId === null || !oneOutput.includes(p.stageKey)) continue;
    if (cited.has(p.stageId)) continue;
    const text = cite('prefill-covers-decode', p.stageId);
    if (text === null) continue;
    cited.add(p.stageId);
    out.push(`  (${partLabel(p, oneOutput, roles)}: ${citedText(text)})`);
  }
  return out;
}

/** The phase a cost fit's y is, as named wherever it is shown. */
function fitPhase(f: Pick<CostFit, 'stageKey' | 'y'>, oneOutput: readonly string[]): string {
  if (f.y === 'vllm_decode_ms') return 'decode';
  return oneOutput.includes(f.stageKey) ? PREFILL_DECODE_LABEL : 'prefill';
}

/**
 * "time to first audio (stage 1 · code2wav)" where the stage's output is audio, "stage 0 TTFT
 * (talker)", "stage 1 time to first output" without roles, "end-to-end time". The CLI and the
 * views word a target with this one function (roles: server/core/stageRoles.ts).
 */
export function targetLabel(target: string, roles: Readonly<Record<string, string>> = {}): string {
  if (target === 'e2e') return 'end-to-end time';
  const m = /^stage([\d_]+)\.(firstOutput|ttft)$/.exec(target);
  if (m === null) return target;
  const stageKey = m[1] as string;
  const role = roleOfStage(stageKey, roles);
  if (m[2] === 'firstOutput' && outputsAudio(role)) return `time to first audio (stage ${stageKey} · ${role})`;
  const plain = m[2] === 'ttft' ? `stage ${stageKey} TTFT` : `stage ${stageKey} time to first output`;
  return role === '' ? plain : `${plain} (${role})`;
}

/**
 * Under a first-output target, the first words of what a part's contribution is (tailContributions.ts
 * clips each part at that first output); null for other targets. explain, the Tail tab and the side
 * panel say it in these words.
 */
export function contributionLimit(target: string, roles: Readonly<Record<string, string>> = {}): string | null {
  return target.endsWith('.firstOutput') ? `Each part counts only up to ${targetLabel(target, roles)}` : null;
}

const UPSTREAM_UNTIL_INPUT =
  '; a stage upstream only up to the instant the next stage had its input, where that stage then made the first output itself (its wait for a slot and its prefill after it): the upstream work after that runs alongside and is not waited for';

/**
 * contributionLimit's whole sentence; `upstreamUntilInput`: the tail's upstream stages counted
 * up to a later stage's input (TailAttribution.upstreamUntilInput), said where it is so.
 */
export function contributionNote(
  target: string,
  roles: Readonly<Record<string, string>> = {},
  upstreamUntilInput = 0,
): string | null {
  const limit = contributionLimit(target, roles);
  return limit === null
    ? null
    : `${limit}: its excess and median are of its time before that first output, less than its own time where it runs on after it${upstreamUntilInput > 0 ? UPSTREAM_UNTIL_INPUT : ''}.`;
}

// A negative share with the minus sign the excesses and the views use.
const pct = (v: number | null): string => {
  if (v === null) return '-';
  const p = Math.round(v * 100);
  return p < 0 ? `−${-p}%` : `${p}%`;
};

function table(rows: string[][], leftColumns = 1): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map(
    (r) =>
      '  ' +
      r
        .map((c, i) => (i < leftColumns ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
        .join('   ')
        .trimEnd(),
  );
}

/** A fit's line in words: the slope, then the fixed part with its sign (a line can cross 0 above x = 0). */
export function fitLine(f: Pick<CostFit, 'slopeMsPer1kTokens' | 'interceptMs'>): string {
  const sign = f.interceptMs < 0 ? '−' : '+';
  return `${groupedNumber(f.slopeMsPer1kTokens, 1, 1).replace('-', '−')} ms per 1k tokens ${sign} ${ms(Math.abs(f.interceptMs))} fixed`;
}

/** Beyond this share of the target's excess a residual is more than rounding, and says why. */
const RESIDUAL_SHARE = 0.05;

/**
 * Why a residual beyond ±5% of the excess is left, after the parts set apart; null within it.
 * `alongsideAdded`: the stages the tail's positions show running alongside their upstream whose
 * parts are still added (none of their sets of parts is the size of the overlap left); named, so
 * the note never says no such stage holds the overlap when one may.
 */
export function residualText(
  residualMs: number,
  excessMs: number,
  anyApart: boolean,
  alongsideAdded: readonly string[] = [],
  own: { readonly residualMs: number; readonly requests: number } | null = null,
): string | null {
  if (!(Math.abs(excessMs) > 0) || !(Math.abs(residualMs) > RESIDUAL_SHARE * Math.abs(excessMs))) return null;
  if (residualMs < 0) {
    const head = `a negative residual: the parts' excesses add up to more than the target's; each is over its own median, taken over all requests, so they need not add up exactly`;
    if (alongsideAdded.length > 0)
      return `${head}; ${alongsideAdded.join(', ')} ran alongside ${alongsideAdded.length === 1 ? 'its' : 'their'} upstream (the tail's positions show it), so part of this may be the same time counted twice, but its parts are not the size of the overlap left (at least half of it, at most twice) and stay in the sum`;
    return `${head}, and ${anyApart ? 'beyond the parts set apart ' : ''}none is known to be the same time counted twice (no stage that the tail's positions show running alongside its upstream holds it)`;
  }
  // Within the tail's own requests the parts may explain all their time: the residual is then the medians' not adding up.
  if (own !== null && !(own.residualMs > RESIDUAL_SHARE * Math.abs(excessMs))) {
    const within = `within the tail request${own.requests === 1 ? '' : 's'}`;
    const onAverage = own.requests === 1 ? '' : ' on average';
    const left =
      own.residualMs < 0
        ? `the parts add up to ${ms(-own.residualMs)} more than the target${onAverage}, so no time of the tail is left unexplained`
        : `the parts leave only ${ms(own.residualMs)} of the target unexplained${onAverage}, so little of the residual is time of the tail that no part explains`;
    return `a positive residual: the parts' excesses add up to less than the target's; each is over its own median, taken over all requests, so they need not add up exactly: ${within} ${left}`;
  }
  return 'a positive residual: time of the tail that no part explains: final output and orchestration where the log does not measure them, gaps between stages, and parts not measured in some tail requests (their time is here)';
}

/** The tail's own residual (within each request) when every part is added up (none set apart), else null. */
function ownResidualOf(
  t: TailAttribution,
  additive: ReturnType<typeof additiveTail>,
): { residualMs: number; requests: number } | null {
  if (additive.apart.length > 0) return null;
  const residualMs = tailOwnResidualMs(t);
  return residualMs === null ? null : { residualMs, requests: t.requestCount };
}

/** The stages shown running alongside their upstream that still hold added parts with an excess (none of them set apart as running alongside). */
function alongsideAddedStages(t: TailAttribution, additive: ReturnType<typeof additiveTail>): string[] {
  const apartAlongside = new Set(additive.apart.filter((a) => a.because === 'alongside').map((a) => a.part.stageKey));
  return (t.alongsideStages ?? []).filter(
    (key) => !apartAlongside.has(key) && additive.parts.some((p) => p.stageKey === key && p.excessMs > 0),
  );
}

function tailHeadline(t: TailAttribution, roles: Readonly<Record<string, string>>): string {
  const boot = t.boot === undefined ? '' : ` (boot ${t.boot})`;
  return `Why ${targetLabel(t.target, roles)} is slow at ${t.quantile}${boot}: ${t.requestCount} of ${t.scopeCount} requests at or above ${ms(t.thresholdMs)}, on average ${ms(t.excessMs)} above the median ${ms(t.targetMedianMs)}`;
}

function tailBlock(
  t: TailAttribution,
  oneOutput: readonly string[],
  roles: Readonly<Record<string, string>>,
  targets: readonly string[],
  cite: Cite,
): string[] {
  const out = [tailHeadline(t, roles)];
  // The parts behind an overlap apart (additiveTail): the shares and the residual add up without them.
  const additive = additiveTail(t);
  const { shown, folded: rest } = foldParts(additive.parts, t.excessMs, TOP_PARTS);
  const rows = [['part', 'excess', 'share', 'median']];
  // A median 0 of a part that lies after the target's instant is no 0 ms measurement: said in words.
  const median = (p: TailPart): string => (p.afterTarget === undefined ? ms(p.medianMs) : 'after target');
  for (const p of shown) rows.push([partLabel(p, oneOutput, roles), signed(p.excessMs), pct(p.share), median(p)]);
  if (rest.length > 0) {
    const sum = rest.reduce((a, p) => a + p.excessMs, 0);
    rows.push([
      `${rest.length} other parts`,
      signed(sum),
      pct(Math.abs(t.excessMs) < 1e-9 ? null : sum / t.excessMs),
      '',
    ]);
  }
  // A part whose contribution no tail request measured: in words, never a number.
  for (const p of t.notMeasured ?? []) rows.push([partLabel(p, oneOutput, roles), 'not measured', '-', 'not measured']);
  for (const { part, ofMs } of additive.apart)
    rows.push([
      `${partLabel(part, oneOutput, roles)} (overlap${ofMs === undefined ? '' : ', within upstream'})`,
      signed(part.excessMs),
      'apart',
      median(part),
    ]);
  rows.push([
    'residual',
    signed(additive.residualMs),
    pct(Math.abs(t.excessMs) < 1e-9 ? null : additive.residualMs / t.excessMs),
    '',
  ]);
  out.push(...table(rows));
  // Cold requests first: when they make the tail, nothing below is about steady-state serving.
  const cold = coldTailText(t);
  if (cold !== null)
    out.push(
      `  (${cold.text}${cold.dominates ? '; --exclude-cold leaves the first request after each server boot out' : ''})`,
    );
  out.push(...oneOutputCitations([...shown, ...additive.apart.map((a) => a.part)], oneOutput, roles, cite));
  const contribution = contributionNote(t.target, roles, t.upstreamUntilInput);
  if (contribution !== null) out.push(`  (${contribution.charAt(0).toLowerCase()}${contribution.slice(1, -1)})`);
  const after = [...shown, ...additive.apart.map((a) => a.part)].find((p) => p.afterTarget !== undefined)?.afterTarget;
  if (after !== undefined)
    out.push(
      `  (median "after target": in most requests that measured the part it lies wholly after the target's end (${after.requests} of ${after.of} for the first such part), so none of it counts toward the target; not a 0 ms measurement)`,
    );
  for (const p of t.notMeasured ?? []) out.push(`  ("not measured": ${p.reason}; its time is in the residual)`);
  const apartNote = overlapText(additive.apart, {
    part: (p) => partLabel(p, oneOutput, roles),
    stage: (key) => stageLabel(key, roles),
    signed,
  });
  if (apartNote !== null) {
    out.push(`  ("overlap": ${apartNote}; shown apart, not in the shares nor the residual)`);
    const overlapCited = cite('stage-times-overlap', null);
    if (overlapCited !== null) out.push(`  (overlap: ${citedText(overlapCited)})`);
  }
  // A residual that holds a downstream TTFT's wait upstream names it instead of the generic causes.
  const residualNote = residualText(
    additive.residualMs,
    t.excessMs,
    apartNote !== null,
    alongsideAddedStages(t, additive).map((key) => stageLabel(key, roles)),
    ownResidualOf(t, additive),
  );
  const waited =
    residualNote !== null && additive.residualMs > 0
      ? ttftWaitText(t, roles, (name) =>
          targets.includes(name) ? `${sentenceCase(targetLabel(name, roles))} (--target ${name})` : null,
        )
      : null;
  if (waited !== null) out.push(`  (the positive residual: ${waited})`);
  else if (residualNote !== null) out.push(`  (${residualNote})`);
  const few = fewValuesTailText(t);
  if (few !== null) out.push(`  (${few})`);
  if (t.requestIds.length > 0)
    out.push(
      `  slowest: ${t.requestIds.slice(0, 3).join(', ')}${t.requestCount > 3 ? ` (+${t.requestCount - 3})` : ''}`,
    );
  return out;
}

/**
 * Whether two quantiles' tails of one target (and boot) are the same requests: a higher
 * quantile's tail lies within a lower one's, so the same count over the same scope is the
 * same set, and its attribution the same (few requests make every quantile's tail the slowest).
 */
function sameTail(a: TailAttribution, b: TailAttribution): boolean {
  return (
    a.target === b.target &&
    a.boot === b.boot &&
    a.quantile !== b.quantile &&
    a.requestCount === b.requestCount &&
    a.scopeCount === b.scopeCount
  );
}

/** A tail whose requests are the block's above: its own figures, and where its parts are. */
function sameTailLines(t: TailAttribution, shownAt: TailQuantile, roles: Readonly<Record<string, string>>): string[] {
  const out = [tailHeadline(t, roles), `  (the same requests as the ${shownAt} tail above, so the same parts)`];
  const few = fewValuesTailText(t);
  if (few !== null) out.push(`  (${few})`);
  return out;
}

const d = (x: Distribution | null, pick: 'p50' | 'p90' | 'p99'): string => (x === null ? '-' : ms(x[pick]));

/** "Stage 1 TTFT (boot 2): only one request in scope measured it, speech-1 (18.4 ms).": explain's words, the views' too. */
export function oneRequestText(o: OneRequestTarget, roles: Readonly<Record<string, string>>): string {
  const boot = o.boot === undefined ? '' : ` (boot ${o.boot})`;
  return `${sentenceCase(targetLabel(o.target, roles))}${boot}: only one request in scope measured it, ${o.requestId} (${ms(o.valueMs)}).`;
}

/** Why a one-request target has no tail; each front end adds where the request's parts are shown. */
export const ONE_REQUEST_NO_TAIL =
  'There is no tail to explain: a tail is compared with the other requests part by part';

export function explainTable(report: ExplainReport, options: ExplainTableOptions = {}): string[] {
  const out: string[] = [];
  const citations = options.citations ?? [];
  const cite: Cite = (code, stageId) => citations.find((c) => c.code === code && c.stageId === stageId)?.text ?? null;
  // Stage roles from the file's name (a saved session's deploy file), as the editor names a session's stages.
  const roles = report.stageRoles;
  const cold = report.scope.excludeCold ? '; cold requests left out' : '';
  const { fromMs, toMs } = report.scope;
  const window =
    fromMs === null && toMs === null
      ? ''
      : `: ${windowText({ fromMs: fromMs ?? Number.NEGATIVE_INFINITY, toMs: toMs ?? Number.POSITIVE_INFINITY })}`;
  out.push(
    `Stage Lens explain: ${report.source} · ${countOf(report.requestCount, 'request')}${report.scope.boot === undefined ? '' : ` of boot ${report.scope.boot}`}${report.scope.server === undefined ? '' : ` of server ${report.scope.server}`} (${report.requestsInScope} in scope${window}${cold})`,
    '',
  );
  // Before the numbers: what the input is not (a deploy config this server did not run).
  if (options.inputNote !== undefined) out.push(options.inputNote, '');
  // No stats at all: what prints them, in analyze's words, before what the log holds instead.
  if (report.noStageStats !== undefined) out.push(report.noStageStats, '');
  // Without the stats tables every stage's time is one unsplit part: said before any tail.
  const tablesMissing = report.findings.find((f) => f.code === 'stage-tables-missing');
  if (tablesMissing !== undefined) out.push(tablesMissing.message, '');
  // Boots of different pipelines pool their stages in every stage part below: said before any tail.
  const mixedBoots = report.findings.find((f) => f.code === 'boots-differ-in-pipeline');
  if (mixedBoots !== undefined) out.push(mixedBoots.message, '');
  // So do the servers of a merged log that served different pipelines.
  const mixedServers = report.findings.find((f) => f.code === 'servers-differ-in-pipeline');
  if (mixedServers !== undefined) out.push(mixedServers.message, '');
  if (report.tail.length === 0 && report.targets.length === 0) {
    const said = new Set<ExplainReport['findings'][number]>(
      [tablesMissing, mixedBoots, mixedServers].filter((f) => f !== undefined),
    );
    const unreadable = unreadableInputFinding(report.findings);
    if (unreadable !== undefined) {
      out.push(unreadable.message, '');
      said.add(unreadable);
    }
    // What the log holds instead of requests, and where it is read: said before the verdict.
    for (const f of report.findings)
      if (f.code === 'legacy-stats-format' || f.code === 'engine-stats-only') {
        out.push(f.message, '');
        said.add(f);
      }
    const overall = report.overallSummaryTables ?? 0;
    if (overall > 0) {
      const one = overall === 1;
      out.push(
        `The log has ${countOf(overall, '[Overall Summary] table')} and no per-request stage table: ${one ? 'it prints' : 'they print'} run totals, ` +
          `not any request's times, so there is no tail to explain; \`stage-lens analyze\` shows ${one ? 'it' : 'them'} as printed. ` +
          (report.statsTablesAtDebug === true
            ? `${one ? 'It was' : 'They were'} printed at DEBUG: ${STATS_TABLES_CUT_CAUSE}. For per-request times, ${STATS_TABLES_CUT_FIX}.`
            : report.debugLines === true
              ? `This log has DEBUG lines, so the server logged at DEBUG: for per-request times, ${STATS_LOGGER_FIX}.`
              : `For per-request times, ${STATS_TABLES_FIX}.`),
        '',
      );
      if (report.overallSummaryCutOff !== undefined) out.push(report.overallSummaryCutOff, '');
    }
    out.push('No target to explain: no request printed an end-to-end time, a first output or a TTFT.');
    // The findings not said above, after the verdict, as a table with targets says its own: every finding of the JSON is in the table.
    for (const f of report.findings) if (!said.has(f) && f.code !== 'metric-not-reporting') out.push('', f.message);
    const notReporting = notReportingLines(report.findings);
    if (notReporting.length > 0) out.push('', ...notReporting);
    return out;
  }
  for (let i = 0; i < report.tail.length; i++) {
    const t = report.tail[i] as TailAttribution;
    const before = i > 0 ? report.tail[i - 1] : undefined;
    out.push(
      ...(before !== undefined && sameTail(before, t)
        ? sameTailLines(t, before.quantile, roles)
        : tailBlock(t, report.oneOutputStages, roles, report.targets, cite)),
      '',
    );
  }
  // One request is its own median: no tail, said once per target (and boot), never a table of +0 ms.
  for (const o of report.oneRequest)
    out.push(`${oneRequestText(o, roles)} ${ONE_REQUEST_NO_TAIL}; analyze shows this request's parts.`, '');
  if (report.unsupportedTargets.length > 0) {
    out.push(
      `Not measured by any request in scope: ${report.unsupportedTargets.map((t) => unsupportedText(t, report.findings, cite)).join('; ')}`,
    );
    if (report.tail.length === 0 && report.oneRequest.length === 0)
      out.push(`Targets this log measures: ${report.targets.join(', ')}`);
    out.push('');
  }

  // The first target and quantile's load: once, or once per boot (--by-boot).
  const firstLoad = report.load[0];
  for (const load of report.load) {
    if (load.target !== firstLoad?.target || load.quantile !== firstLoad.quantile) continue;
    const boot = load.boot === undefined ? '' : `, boot ${load.boot}`;
    out.push(
      `Load at arrival (${targetLabel(load.target, roles)}, ${load.quantile} tail${boot}; arrival = finish - end to end (e2e_total_ms, else the [OmniTiming] total=, else an older format's e2e_time_ms), finish to 1 s, so only an overlap of more than 1 s counts): ${load.readingText}`,
    );
    const rows = [['in flight', 'requests', 'tail', 'p50', 'p90', 'p99']];
    for (const b of load.buckets) {
      rows.push([
        b.maxInFlight === b.minInFlight ? String(b.minInFlight) : `${b.minInFlight}-${b.maxInFlight ?? ''}`,
        String(b.count),
        String(b.tailCount),
        d(b.target, 'p50'),
        d(b.target, 'p90'),
        d(b.target, 'p99'),
      ]);
    }
    // No known arrival: no buckets, and a header over nothing would read as an empty measurement.
    if (load.buckets.length > 0) {
      out.push(...table(rows));
      out.push(`  ${inFlightText(load, '-')}`);
    }
    if (load.stages.length > 0)
      out.push(
        `  ${STAGE_LOAD_LABEL}: ${stageLoadCells(load, roles)
          .map((s) => `${s.stage} ${s.all ?? '-'} / ${s.tail ?? '-'}`)
          .join(' · ')}`,
      );
    if (load.arrivalsUnknown > 0)
      out.push(
        `  ${load.arrivalsUnknown} requests without a known arrival (no timestamp or no end-to-end time) left out`,
      );
    out.push('');
  }

  const preempted = report.preemptions[0];
  if (preempted !== undefined) {
    out.push(
      `Preemptions (${targetLabel(preempted.target, roles)}, ${preempted.quantile} tail; requests that printed vllm_num_preemptions > 0): ${preempted.readingText}`,
    );
    const shownStages = [...preempted.stages];
    for (const s of preempted.stages)
      out.push(`  ${stagePreemptionsText(s, preempted.tailCount, preempted.scopeCount, roles)}`);
    // The other targets and quantiles only where preemption stands out in their tail.
    for (const p of report.preemptions.slice(1))
      if (p.reading === 'overRepresented') {
        out.push(
          `  ${targetLabel(p.target, roles)}, ${p.quantile} tail: ${p.stages.map((s) => stagePreemptionsText(s, p.tailCount, p.scopeCount, roles)).join('; ')}`,
        );
        pushAll(shownStages, p.stages);
      }
    // What bounds each such stage's KV-cache room, once per stage, as the deploy config sets it.
    const cited = new Set<number>();
    for (const s of shownStages) {
      const text = s.stageId === null || cited.has(s.stageId) ? null : cite('preempted-requests', s.stageId);
      if (text === null || s.stageId === null) continue;
      cited.add(s.stageId);
      out.push(`  (${citedText(text)})`);
    }
    out.push('');
  }

  if (report.costModel.length > 0 || report.costModelSkipped.length > 0) {
    out.push('Cost per token (least squares over requests)');
    for (const f of report.costModel) {
      out.push(
        `  ${stageLabel(f.stageKey, roles)} ${fitPhase(f, report.oneOutputStages)} vs ${f.x}: ${fitLine(f)} (R² ${f.r2.toFixed(2)}, n=${f.n})`,
      );
      if (f.caveat !== undefined) out.push(`    caveat: ${f.caveat}`);
    }
    for (const s of report.costModelSkipped)
      out.push(
        `  ${stageLabel(s.stageKey, roles)} ${fitPhase(s, report.oneOutputStages)} vs ${s.x}: not fitted, ${s.reason}`,
      );
    out.push('');
  }

  const notReporting = notReportingLines(report.findings);
  if (notReporting.length > 0) out.push(...notReporting, '');
  return out;
}

/** The metric-not-reporting findings under their heading, with their known causes; none without one. */
function notReportingLines(findings: ExplainReport['findings']): string[] {
  const notReporting = findings.filter((f) => f.code === 'metric-not-reporting');
  if (notReporting.length === 0) return [];
  const out = ['Metrics not reporting'];
  for (const f of notReporting) {
    out.push(`  ${f.message}`);
    for (const c of f.knownCauses ?? []) out.push(`    known cause: ${c}`);
  }
  return out;
}
