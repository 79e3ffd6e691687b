// `analyze --format table`: what a person reads in a terminal. Stages as rows (three
// lines each: p50, p90, p99), the phase split in ms over measured values (and 0s inferred from a hidden row), then how
// many values were not measured / hidden / not recorded, then the findings.
import { fileLinesText, placeOfLine, type FileLines } from '../joinedLines';
import type { AnalysisSnapshot } from '../analysis/streamAnalysis';
import type {
  Distribution,
  EdgeSummary,
  Finding,
  SplitName,
  StageSummary,
  TimePerTokenSummary,
} from '../analysis/types';
import { SPLIT_FIELD, SPLIT_LABEL } from '../analysis/types';
import { PREFILL_DECODE_LABEL } from '../analysis/oneOutputStage';
import { SLOWEST_PHASE_TEXT, slowestPhaseCaveats, slowestPhaseOf, slowestPhaseText } from '../analysis/slowest';
import type { Percentile } from '../reportedPercentiles';
import { formatMs, textTable, withVisibleControls } from '../textTable';
import { edgeLabel } from '../edgeLabel';
import { pushAll } from '../arrays';
import { NO_NUMBER_WORD, noNumberState } from '../values';
import { fewValuesLines, type CountedRow } from './fewValues';
import { serverLines } from './serverTable';
import { overallSummaryOnlyMessage } from '../analysis/overallSummaries';
import { overallSummaryLines } from './overallSummaryTable';
import { runSummaryLines } from './runSummaryTable';
import { countOf } from '../numberText';
import { TIME_PER_TOKEN_LABEL, TIME_PER_TOKEN_SOURCE, timePerTokenLeftOut } from '../analysis/timePerTokenWords';
import { stageCell, stageLabel } from '../stageRoles';
import { sentenceCase } from '../sentenceCase';
import { FIRST_OUTPUT_FIELD, UNRECORDED_TEXT, type UnrecordedReason } from '../analysis/unrecordedValues';
import { unreadableInputFinding } from '../analysis/unreadableInput';
import { TTFT_WAITED_MARK } from '../analysis/ttftUpstreamWait';
import { NEGATIVE_ADDED_NOTE_LINES } from '../analysis/crossStage';
import { noStageStatsText } from '../analysis/noStageStats';
import { DIFFUSION_TABLE_FIELDS, diffusionLines } from './diffusionTable';

type StageRoles = Readonly<Record<string, string>>;

/** The stage fields the table reads from the summaries (a table-only reader need not summarize the others). */
export const TABLE_SUMMARY_FIELDS: ReadonlySet<string> = new Set([
  'stage_gen_time_ms',
  'omni_timing_stage_s',
  FIRST_OUTPUT_FIELD,
  ...DIFFUSION_TABLE_FIELDS,
]);

type Column = {
  readonly title: string;
  readonly pick: (s: StageSummary) => Distribution | null | undefined;
  /** A phase of the split: with no number, its cell says why in the views' words ("not recorded"). */
  readonly split?: SplitName;
  /** Shown only when some stage has a number there (as the side panel's columns): most stages print no input split. */
  readonly inputSplit?: true;
  /** What the cell says when pick has nothing: a stage whose prefill covers its decode. */
  readonly oneOutput?: (s: StageSummary, p: Percentile) => string;
};

const COLUMNS: readonly Column[] = [
  { title: 'queued', pick: (s) => s.split.queuedMs, split: 'queuedMs' },
  { title: 'input wait', pick: (s) => s.split.inputWaitMs, split: 'inputWaitMs', inputSplit: true },
  { title: 'ready queued', pick: (s) => s.split.readyQueuedMs, split: 'readyQueuedMs', inputSplit: true },
  // A one-output stage's vllm_prefill_ms covers its decode: "1,358 +decode", and its decode is "in prefill".
  {
    title: 'prefill',
    pick: (s) => s.split.prefillMs,
    split: 'prefillMs',
    oneOutput: (s, p) => (s.prefillDecodeMs === null ? '-' : `${formatMs(s.prefillDecodeMs[p])} +decode`),
  },
  { title: 'decode', pick: (s) => s.split.decodeMs, split: 'decodeMs', oneOutput: () => 'in prefill' },
  { title: 'TTFT', pick: (s) => s.split.ttftMs, split: 'ttftMs' },
  {
    title: 'gen time',
    pick: (s) =>
      s.fields['stage_gen_time_ms'] ??
      (s.fields['omni_timing_stage_s'] ? scale(s.fields['omni_timing_stage_s'], 1000) : undefined),
  },
  { title: '1st output', pick: (s) => s.fields[FIRST_OUTPUT_FIELD] },
  { title: '+1st output', pick: (s) => s.addedTimeToFirstOutputMs },
];

/** The printed fields behind the table's field columns, with their column titles. */
const FIELD_COLUMNS: readonly (readonly [string, string])[] = [
  ['stage_gen_time_ms', 'gen time'],
  [FIRST_OUTPUT_FIELD, '1st output'],
];

/** The values behind each of a stage row's percentile columns (a one-output prefill: its prefill+decode). */
function stageCounts(s: StageSummary, roles: StageRoles): CountedRow {
  return {
    label: stageLabel(s.stageKey, roles),
    columns: COLUMNS.map((c) => {
      const d = c.pick(s) ?? (c.oneOutput !== undefined && c.title === 'prefill' ? s.prefillDecodeMs : null);
      return { column: c.title, count: d?.count ?? 0 };
    }),
  };
}

/** A stage summary's p50, p90 and p99 rows: `label` and its count on the first. */

/**
 * A stage summary's p50, p90 and p99 rows: `label` and its count on the first. `ttftWaited`:
 * some of its TTFTs include a wait for upstream output, so its TTFT cells carry TTFT_WAITED_MARK.
 */
function percentileRows(label: string, s: StageSummary, columns: readonly Column[], ttftWaited = false): string[][] {
  return (['p50', 'p90', 'p99'] as const).map((p, i) => [
    i === 0 ? label : '',
    i === 0 ? String(s.requestCount) : '',
    p,
    ...columns.map((c) => {
      const d = c.pick(s);
      if ((d === null || d === undefined) && c.oneOutput !== undefined && s.oneOutputRequests > 0)
        return c.oneOutput(s, p);
      if ((d === null || d === undefined) && c.split !== undefined && s.requestCount > 0)
        return NO_NUMBER_WORD[noNumberState(s.splitStates[c.split])];
      if (d === null || d === undefined) return '-';
      // Every value a 0 read from a hidden row: a rule's number, not a printed one.
      const inferredOnly =
        c.split !== undefined && s.splitStates[c.split].measured === 0 && s.splitStates[c.split].inferred > 0;
      const waited = ttftWaited && c.split === 'ttftMs' ? TTFT_WAITED_MARK : '';
      return `${inferredOnly ? '≈' : ''}${formatMs(d[p])}${c.oneOutput !== undefined && s.oneOutputRequests > 0 ? '*' : ''}${waited}`;
    }),
  ]);
}

/** `replica 1`; `replica None` for requests printed without a replica id. */
function replicaLabel(replicaId: number | null): string {
  return `replica ${replicaId ?? 'None'}`;
}

/** Per-replica summaries by stage key, replicas in id order (None last). */
function replicasByStage(replicas: readonly StageSummary[]): Map<string, StageSummary[]> {
  const out = new Map<string, StageSummary[]>();
  for (const r of replicas) {
    const list = out.get(r.stageKey);
    if (list === undefined) out.set(r.stageKey, [r]);
    else list.push(r);
  }
  for (const list of out.values()) list.sort((a, b) => (a.replicaId ?? Infinity) - (b.replicaId ?? Infinity));
  return out;
}

function scale(d: Distribution, k: number): Distribution {
  return { count: d.count, mean: d.mean * k, p50: d.p50 * k, p90: d.p90 * k, p99: d.p99 * k, max: d.max * k };
}

export interface TableReportOptions {
  readonly source: string;
  /** Stage id -> role ("0" -> "talker", server/core/stageRoles.ts): rows and notes name stages with them. */
  readonly stageRoles?: StageRoles;
  /** Said instead of the advice for a log without stats when no request has been read yet (a live view still waiting). */
  readonly noRequestYet?: readonly string[];
  /** Said once under the first line, before any number: what to know about the input (a deploy config that is not the log's). */
  readonly inputNote?: string;
  /** Said under the first line too: the requests a time window (--since/--until) kept and left out. */
  readonly windowNote?: string;
  /** A live frame's terminal width: a phase table wider than it folds its columns into blocks that fit. */
  readonly foldWidth?: number;
  /** Several files read as one log: where each file's lines are in the line numbers the report gives. */
  readonly fileLines?: readonly FileLines[];
}

export function tableReport(snapshot: AnalysisSnapshot, options: TableReportOptions): string[] {
  const out: string[] = [];
  const roles = options.stageRoles ?? {};
  // Counted without materializing the requests: a table needs only the summaries.
  const cold = snapshot.coldRequestCount;
  const count = snapshot.requestCount;
  out.push(
    `Stage Lens: ${countOf(count, 'request')}, ${countOf(snapshot.stages.length, 'stage')}` +
      (snapshot.boots > 0
        ? `, ${countOf(snapshot.boots, 'server boot')} (${countOf(cold, 'cold request')}${snapshot.coldLeftOut > 0 ? ', left out of the percentiles and findings' : ''})`
        : '') +
      ` from ${options.source}`,
  );
  if (options.inputNote !== undefined) pushAll(out, ['', ...wrap(options.inputNote)]);
  if (options.windowNote !== undefined) pushAll(out, ['', ...wrap(options.windowNote)]);
  const fileLines = options.fileLines;
  if (fileLines !== undefined)
    pushAll(out, ['', ...wrap(`Line numbers count through the files as read: ${fileLinesText(fileLines)}.`)]);
  const missing = snapshot.tablesMissing;
  const legacyFinding = snapshot.findings.find((f) => f.code === 'legacy-stats-format');
  let legacySaid: Finding | undefined;
  // Said once, before any number: what is missing and the fix.
  if (missing !== null) pushAll(out, ['', ...wrap(missing.message)]);
  const overall = snapshot.overallSummaries;
  if (snapshot.stages.length === 0 && overall !== null) {
    // [Overall Summary] tables only: what they print, and what is missing.
    pushAll(out, [
      '',
      ...wrap(overallSummaryOnlyMessage(overall, snapshot.debugLines, snapshot.statsTablesAtDebug)),
      '',
      ...overallSummaryLines(overall),
    ]);
  } else if (legacyFinding !== undefined && count > 0 && snapshot.legacyRequests >= count) {
    // Every request is a legacy dict's: what is shown and what is not, before the numbers. The
    // orchestrator's JSON records name no stage: their end-to-end times and edges are still shown.
    pushAll(out, ['', ...wrap((legacySaid = legacyFinding).message), '', ...legacyTable(snapshot, roles)]);
  } else if (snapshot.stages.length === 0) {
    const legacy = legacyFinding;
    const unreadable = unreadableInputFinding(snapshot.findings);
    const why = noStageStatsText(snapshot.findings, snapshot.debugLines);
    if (unreadable === undefined && legacy !== undefined) legacySaid = legacy;
    out.push(
      '',
      ...(unreadable !== undefined ? [why] : legacy !== undefined ? wrap(why) : (options.noRequestYet ?? [why])),
    );
  } else if (missing?.all === true) {
    pushAll(out, ['', ...timingOnlyTable(snapshot, roles)]);
    // Without the stats tables, the summaries' own figures (input preprocessing, per-stage wall time) add to [OmniTiming]'s.
    if (overall !== null) pushAll(out, ['', ...overallSummaryLines(overall)]);
  } else {
    out.push(
      '',
      'Phase split per stage, ms (over measured values, and 0s inferred from a hidden row: ≈ where every value is one; a phase with none says why: not measured, hidden or not recorded; "-" = none; +1st output = time to first output added by this stage, within each request)',
    );
    const rows: string[][] = [];
    const inputSplit = snapshot.stages.some((s) =>
      (['inputWaitMs', 'readyQueuedMs'] as const).some(
        (n) => s.splitStates[n].measured + s.splitStates[n].inferred > 0,
      ),
    );
    const columns = COLUMNS.filter((c) => c.inputSplit !== true || inputSplit);
    // A stage that ran on several replicas: each replica's rows under the stage's (a slow replica hides in the stage's percentiles).
    const replicas = replicasByStage(snapshot.replicas);
    const counted: CountedRow[] = [];
    // A TTFT that waited upstream is not the stage's queueing and prefill: marked, never shown as them.
    const waited = snapshot.findings.filter((f) => f.code === 'ttft-includes-upstream-wait');
    const waitedStage = (s: StageSummary): boolean => waited.some((f) => f.stageId === s.stageId);
    for (const s of snapshot.stages) {
      pushAll(rows, percentileRows(stageCell(s.stageKey, roles), s, columns, waitedStage(s)));
      counted.push(stageCounts(s, roles));
      for (const r of replicas.get(s.stageKey) ?? []) {
        pushAll(rows, percentileRows(`  ${replicaLabel(r.replicaId)}`, r, columns, waitedStage(s)));
        counted.push({
          ...stageCounts(r, roles),
          label: `${stageLabel(s.stageKey, roles)} ${replicaLabel(r.replicaId)}`,
        });
      }
    }
    const fold = options.foldWidth === undefined ? undefined : { width: options.foldWidth, keep: 3 };
    pushAll(out, textTable(['stage', 'n', '', ...columns.map((c) => c.title)], rows, fold));
    if (waited.length > 0)
      out.push(
        '',
        `${TTFT_WAITED_MARK} TTFT includes a wait for upstream output on ${waited.map((f) => `${f.stageId === null ? '' : stageLabel(String(f.stageId), roles)} (${f.requestCount} of ${snapshot.stages.find((s) => s.stageId === f.stageId && s.replicaId === null)?.requestCount ?? f.requestCount} requests)`).join(', ')}: time to first output from the stage's arrival, not its own queueing and prefill (finding ttft-includes-upstream-wait).`,
      );
    const endToEnd = endToEndLines(snapshot);
    if (endToEnd.length > 0) {
      out.push('', ...endToEnd);
      counted.push({ label: 'end to end', columns: [{ column: '', count: snapshot.endToEnd?.ms.count ?? 0 }] });
    }
    const perServer = serverLines(snapshot.servers);
    if (perServer.length > 0) out.push('', ...perServer);
    const few = fewValuesLines(counted);
    if (few.length > 0) out.push('', ...few);
    if (snapshot.stages.some((s) => (s.addedTimeToFirstOutputMs?.p50 ?? 0) < 0)) {
      out.push('', ...NEGATIVE_ADDED_NOTE_LINES);
    }
    const slowest = slowestPhaseLines(snapshot.stages, roles);
    if (slowest.length > 0) out.push('', ...slowest);
    const oneOutput = snapshot.stages.filter((s) => s.oneOutputRequests > 0);
    if (oneOutput.length > 0) {
      out.push(
        '',
        `+decode / in prefill: ${PREFILL_DECODE_LABEL}. These stages emit one output, when they stop (Model Runner V2 + async chunk, a non-final`,
      );
      out.push(
        'autoregressive stage): vllm_prefill_ms covers every decode step, so it is not prefill alone and vllm_decode_ms is not a measurement.',
      );
      // As the cells are marked: a one-output stage's prefill or decode column with numbers of other requests.
      const mixed = oneOutput.some((s) => s.split.prefillMs !== undefined || s.split.decodeMs !== undefined);
      out.push(
        `  ${oneOutput.map((s) => `${stageLabel(s.stageKey, roles)}: ${s.oneOutputRequests} of ${s.requestCount} requests`).join('; ')}${mixed ? ' (* = prefill and decode of the other requests only)' : ''}`,
      );
    }
    const notes: string[] = [];
    const inferredNotes: string[] = [];
    for (const s of snapshot.stages) {
      for (const [name, label] of Object.entries(SPLIT_LABEL) as [SplitName, string][]) {
        const st = s.splitStates[name];
        const parts: string[] = [];
        // Not recorded: printed numbers that are not times said with their reason, the rest (lies
        // the findings explain) as not recorded.
        const reasons = Object.entries(s.fieldsNotRecorded[SPLIT_FIELD[name]] ?? {}) as [UnrecordedReason, number][];
        const printed = reasons.reduce((sum, [, n]) => sum + n, 0);
        if (st.notRecorded > printed) parts.push(`${st.notRecorded - printed} not recorded`);
        for (const [reason, n] of reasons) parts.push(`${n} ${UNRECORDED_TEXT[reason]}`);
        if (st.notMeasured > 0) parts.push(`${st.notMeasured} not measured (None)`);
        if (st.inferred > 0)
          inferredNotes.push(
            `  ${stageLabel(s.stageKey, roles)} ${label}: ${st.inferred} inferred 0 (hidden row, other half of the split measured) of ${s.requestCount}`,
          );
        // A row hidden on every request is said for the phases every LLM stage has (a codec's decode
        // under the first-audio signature), not for the input split a stage may not have at all.
        const always = name === 'queuedMs' || name === 'prefillMs' || name === 'decodeMs' || name === 'ttftMs';
        if (st.hidden > 0 && (st.hidden < s.requestCount || (always && s.oneOutputRequests === 0)))
          parts.push(`${st.hidden} hidden (zero or not measured)`);
        if (parts.length > 0)
          notes.push(`  ${stageLabel(s.stageKey, roles)} ${label}: ${parts.join(', ')} of ${s.requestCount}`);
      }
      // Printed numbers of the columns' fields that are not measurements (unrecordedValues.ts).
      for (const [field, label] of FIELD_COLUMNS) {
        const reasons = s.fieldsNotRecorded[field];
        if (reasons === undefined) continue;
        const parts = (Object.entries(reasons) as [UnrecordedReason, number][]).map(
          ([reason, n]) => `${n} ${UNRECORDED_TEXT[reason]}`,
        );
        notes.push(`  ${stageLabel(s.stageKey, roles)} ${label}: ${parts.join(', ')} of ${s.requestCount}`);
      }
    }
    if (notes.length > 0) pushAll(out, ['', 'Values left out of the percentiles:', ...notes]);
    if (inferredNotes.length > 0)
      pushAll(out, ['', 'Values in the percentiles that the log did not print:', ...inferredNotes]);
  }
  const legacyZeros = new Set(
    snapshot.findings.flatMap((f) => (f.code === 'diffusion-zero-ambiguous' && f.stageId !== null ? [f.stageId] : [])),
  );
  const diffusion = diffusionLines(snapshot.stages, roles, legacyZeros);
  if (diffusion.length > 0) out.push('', ...diffusion);
  if (snapshot.edges.length > 0) {
    // Every request a legacy dict's: its edges are transfer_total_stats dicts, over the requests the totals are.
    const legacy = legacyFinding !== undefined && snapshot.legacyRequests >= count;
    out.push(
      '',
      ...transferLines(
        snapshot.edges,
        legacy ? (snapshot.endToEnd?.transfersTotal?.requests ?? null) : undefined,
        legacyJsonOnly(snapshot) ? 'records' : 'dicts',
      ),
    );
  }
  if (snapshot.runSummaries !== null) out.push('', ...runSummaryLines(snapshot.runSummaries, roles));
  // Said above already: the missing tables, and legacy dicts when they are all the log has.
  const listed = (f: Finding): boolean => (f.code !== 'stage-tables-missing' || missing === null) && f !== legacySaid;
  if (snapshot.findings.some(listed)) {
    out.push('', 'Findings:');
    for (const f of snapshot.findings)
      if (listed(f))
        out.push(
          `  [${f.severity}] ${f.code}${f.stageId === null ? '' : ` (stage ${f.stageId})`}${f.requestCount > 0 ? `, ${requestsText(f)}` : ''}: ${f.message}`,
        );
  }
  if (snapshot.problems.length > 0) {
    out.push('', `Input problems (${snapshot.problems.length}):`);
    for (const p of snapshot.problems.slice(0, 10)) out.push(`  ${problemPlace(p.line, fileLines)}: ${p.message}`);
    if (snapshot.problems.length > 10) out.push(`  ... ${snapshot.problems.length - 10} more (see --format json)`);
  }
  return out;
}

/** "line 313", and of several files read as one "line 313 (server.log line 17)". */
function problemPlace(line: number, fileLines: readonly FileLines[] | undefined): string {
  const place = fileLines === undefined ? null : placeOfLine(fileLines, line);
  return place === null ? `line ${line}` : `line ${line} (${place.file} line ${place.line})`;
}

/** Wraps a long sentence for an 80-column terminal, on spaces only. */
function wrap(text: string, width = 110): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Each stage's time and the end-to-end time, as p50/p90/p99 and max over the requests, under `heading`. */
function stageTimeTable(
  snapshot: AnalysisSnapshot,
  roles: StageRoles,
  heading: string,
  stageTime: (s: StageSummary) => Distribution | undefined,
  after: readonly { readonly label: string; readonly few: string; readonly d: Distribution | null }[] = [],
): string[] {
  const rows: string[][] = [];
  const counted: CountedRow[] = [];
  const line = (label: string, d: Distribution | null, few = label): void => {
    // A row with no measured value still heads the rows indented under it: "-", never 0.
    if (d === null) {
      rows.push([label, '0', '-', '-', '-', '-']);
      return;
    }
    rows.push([label, String(d.count), formatMs(d.p50), formatMs(d.p90), formatMs(d.p99), formatMs(d.max)]);
    counted.push({ label: few, columns: [{ column: '', count: d.count }] });
  };
  for (const s of snapshot.stages) {
    const d = stageTime(s);
    if (d !== undefined) line(stageLabel(s.stageKey, roles), d);
  }
  if (snapshot.endToEnd !== null) line('end to end', snapshot.endToEnd.ms);
  for (const a of after) line(a.label, a.d, a.few);
  const few = fewValuesLines(counted);
  return [heading, ...textTable(['', 'n', 'p50', 'p90', 'p99', 'max'], rows), ...(few.length > 0 ? ['', ...few] : [])];
}

/**
 * Each request's end-to-end time beside the phase table: e2e_total_ms of its RequestE2EStats,
 * else its [OmniTiming] total= (endToEnd.ts), over the requests that printed one; how many
 * printed none is said, never counted as 0.
 */
function endToEndLines(snapshot: AnalysisSnapshot): string[] {
  const e2e = snapshot.endToEnd;
  if (e2e === null) return [];
  const d = e2e.ms;
  const fromTiming =
    e2e.fromOmniTiming === 0
      ? ''
      : `; ${e2e.fromOmniTiming === d.count ? 'all' : `${e2e.fromOmniTiming} of them`} from [OmniTiming] total=, 10 ms resolution`;
  const rows = [[END_TO_END, String(d.count), formatMs(d.p50), formatMs(d.p90), formatMs(d.p99), formatMs(d.max)]];
  const perToken = e2e.timePerToken?.ms;
  if (perToken !== undefined && perToken !== null)
    rows.push([
      PER_TOKEN_LABEL,
      String(perToken.count),
      formatMs(perToken.p50),
      formatMs(perToken.p90),
      formatMs(perToken.p99),
      formatMs(perToken.max),
    ]);
  const lines = [
    `End to end per request, ms (e2e_total_ms of RequestE2EStats${fromTiming}${perToken === undefined || perToken === null ? '' : `; ${PER_TOKEN_HEADING}`})`,
    ...textTable(['', 'n', 'p50', 'p90', 'p99', 'max'], rows),
  ];
  const without = snapshot.requestCount - snapshot.coldLeftOut - d.count;
  if (without > 0)
    lines.push(
      `  ${countOf(without, 'request')} printed no end-to-end time (or not a time): left out, not counted as 0.`,
    );
  pushAll(lines, timePerTokenNotes(e2e.timePerToken));
  return lines;
}

const END_TO_END = 'end to end';
const PER_TOKEN_LABEL = TIME_PER_TOKEN_LABEL;
const PER_TOKEN_HEADING = `${TIME_PER_TOKEN_LABEL}: ${TIME_PER_TOKEN_SOURCE}`;

/** The printed times per token left out, by reason (a 0.0 is the no-output-token default, never 0 ms). */
function timePerTokenNotes(t: TimePerTokenSummary | undefined): string[] {
  return timePerTokenLeftOut(t).map((sentence) => `  ${sentence}`);
}

/**
 * What a log of [OmniTiming] lines only gives: each stage's time (its stage_gen_time_ms,
 * printed to 10 ms) and the end-to-end time.
 */
function timingOnlyTable(snapshot: AnalysisSnapshot, roles: StageRoles): string[] {
  return stageTimeTable(
    snapshot,
    roles,
    'Stage time and end to end from [OmniTiming], ms (printed to 10 ms; no phase split without the stats tables)',
    (s) =>
      s.fields['stage_gen_time_ms'] ??
      (s.fields['omni_timing_stage_s'] ? scale(s.fields['omni_timing_stage_s'], 1000) : undefined),
  );
}

/** Every legacy record is a JSON line of log_utils.py's stats files (legacyDict.ts), none a printed dict. */
function legacyJsonOnly(snapshot: AnalysisSnapshot): boolean {
  return snapshot.legacyJsonRecords > 0 && snapshot.legacyJsonRecords === snapshot.legacyRecords;
}

/**
 * What the request_level_metrics dicts of vLLM-Omni's format before February 2026 give: each
 * stage's stage_gen_time_ms, the end-to-end e2e_time_ms and the request's transfer totals
 * (its edges' transfer_total_stats are the transfer table's).
 */
function legacyTable(snapshot: AnalysisSnapshot, roles: StageRoles): string[] {
  const from = legacyJsonOnly(snapshot)
    ? "log_utils.py's overall_request / orchestrator_request_e2e JSON records"
    : 'the request_level_metrics dicts';
  const totals = snapshot.endToEnd?.transfersTotal;
  const label = 'transfers (total per request)';
  const after: { label: string; few: string; d: Distribution | null }[] = [];
  if (totals?.timeMs) after.push({ label, few: label, d: totals.timeMs });
  else if (totals?.kbytes) after.push({ label, few: label, d: null });
  if (totals?.kbytes) after.push({ label: '  size, KB', few: `${label} size`, d: totals.kbytes });
  const perToken = snapshot.endToEnd?.timePerToken;
  if (perToken?.ms) after.push({ label: PER_TOKEN_LABEL, few: PER_TOKEN_LABEL, d: perToken.ms });
  const lines = stageTimeTable(
    snapshot,
    roles,
    totals === undefined
      ? `Stage time (stage_gen_time_ms) and end to end (e2e_time_ms) from ${from}, ms (no phase split in that format)`
      : `Stage time (stage_gen_time_ms), end to end (e2e_time_ms) and transfers (transfers_total_time_ms; size: transfers_total_bytes in KB) from ${from}, ms (no phase split in that format; over measured values only)`,
    (s) => s.fields['stage_gen_time_ms'],
    after,
  );
  if (perToken?.ms) lines[0] = `${lines[0]}; ${PER_TOKEN_HEADING}`;
  const perTokenNotes = timePerTokenNotes(perToken);
  if (totals === undefined)
    return perTokenNotes.length > 0 ? [...lines, '', 'Values left out of the percentiles:', ...perTokenNotes] : lines;
  const notes: string[] = [...perTokenNotes];
  const without = totals.requests - (totals.timeMs?.count ?? 0) - totals.timeNotATime;
  if (without > 0)
    notes.push(
      `  ${label}: ${without} of ${countOf(totals.requests, 'request')} printed no transfers_total_time_ms: left out, not counted as 0.`,
    );
  if (totals.timeNotATime > 0)
    notes.push(
      `  ${label}: ${totals.timeNotATime} of ${countOf(totals.requests, 'request')} printed transfers_total_time_ms below zero, nan or inf: not a time, left out.`,
    );
  const noSize = totals.requests - (totals.kbytes?.count ?? 0);
  if (noSize > 0)
    notes.push(
      `  ${label}: ${noSize} of ${countOf(totals.requests, 'request')} printed no transfers_total_bytes (or not a size): left out of the size, not counted as 0.`,
    );
  return notes.length > 0 ? [...lines, '', 'Values left out of the percentiles:', ...notes] : lines;
}

const omniTimingSend = (e: EdgeSummary): Distribution | null => e.omniTimingTxMs;

const EDGE_COLUMNS: ReadonlyArray<{
  readonly title: string;
  readonly pick: (e: EdgeSummary) => Distribution | null | undefined;
  /** With no number, the state's word where the values have one (as the side panel's Transfers table). */
  readonly noNumber?: (e: EdgeSummary) => string | null;
  /** Shown only when some edge has a number there: only the legacy transfer_total_stats dicts print a total. */
  readonly whenPrinted?: true;
}> = [
  { title: 'send', pick: (e) => e.fields['tx_time_ms'] },
  { title: 'in flight', pick: (e) => e.fields['in_flight_time_ms'] },
  { title: 'recv decode', pick: (e) => e.fields['rx_decode_time_ms'] },
  { title: 'total', pick: (e) => e.fields['total_time_ms'], whenPrinted: true },
  { title: 'size KB', pick: (e) => e.fields['size_kbytes'] },
  {
    title: '[OmniTiming] send',
    pick: omniTimingSend,
    noNumber: (e) => (e.omniTimingTxStates.notRecorded > 0 ? NO_NUMBER_WORD.notRecorded : null),
  },
];

/**
 * Per transfer edge, p50/p90/p99 over measured values, and what was left out and why. `legacy`:
 * the edges are the transfer_total_stats dicts of that format (no [OmniTiming]), over that many
 * requests (null: not known); undefined otherwise.
 */
function transferLines(edges: readonly EdgeSummary[], legacy?: number | null, legacyWord = 'dicts'): string[] {
  const columns = EDGE_COLUMNS.filter(
    (c) =>
      (c.whenPrinted !== true || edges.some((e) => c.pick(e) != null)) &&
      (legacy === undefined || c.pick !== omniTimingSend),
  );
  const rows: string[][] = [];
  for (const e of edges) {
    (['p50', 'p90', 'p99'] as const).forEach((p, i) => {
      rows.push([
        i === 0 ? edgeLabel(withVisibleControls(e.edge)) : '',
        i === 0 ? String(e.requestCount) : '',
        i === 0 ? String(e.tableCount) : '',
        p,
        ...columns.map((c) => {
          const d = c.pick(e);
          return d === null || d === undefined ? (c.noNumber?.(e) ?? '-') : formatMs(d[p]);
        }),
      ]);
    });
  }
  const out = [
    legacy === undefined
      ? 'Transfers per edge, ms (size in KB; TransferEdgeStats and [OmniTiming] kept apart; over measured values only; "-" = none)'
      : `Transfers per edge from the transfer_total_stats ${legacyWord}, ms (size in KB; table = requests with one for the edge; over measured values only; "-" = none)`,
    ...textTable(['edge', 'n', 'table', '', ...columns.map((c) => c.title)], rows),
  ];
  const few = fewValuesLines(
    edges.map((e) => ({
      label: `edge ${edgeLabel(withVisibleControls(e.edge))}`,
      columns: columns.map((c) => ({ column: c.title, count: c.pick(e)?.count ?? 0 })),
    })),
  );
  if (few.length > 0) out.push('', ...few);
  for (const e of edges) {
    const unrecorded = e.omniTimingTxStates.notRecorded;
    if (unrecorded > 0) {
      out.push(
        `  ${edgeLabel(withVisibleControls(e.edge))}: ${unrecorded} of ${e.requestCount} [OmniTiming] sends print 0.00 ms with no measured tx_time_ms: no payload transfer recorded (the edge exists for every downstream stage), not counted as 0 ms.`,
      );
    }
    for (const [field, states] of Object.entries(e.fieldStates))
      if (states.notRecorded > 0)
        out.push(
          `  ${edgeLabel(withVisibleControls(e.edge))}: ${states.notRecorded} of ${e.requestCount} ${withVisibleControls(field)} printed below zero, nan or inf: not a time, left out.`,
        );
    if (legacy !== undefined && legacy !== null && e.requestCount < legacy)
      out.push(
        `  ${edgeLabel(withVisibleControls(e.edge))}: ${legacy - e.requestCount} of ${legacy} requests printed no transfer_total_stats dict for it (printed with --log-stats only; an edge printed twice for a request is left out): not counted as 0.`,
      );
    if (e.tableCount < e.requestCount && legacy === undefined)
      out.push(
        `  ${edgeLabel(withVisibleControls(e.edge))}: ${e.requestCount - e.tableCount} of ${e.requestCount} requests printed no TransferEdgeStats column for it (DEBUG only, and hidden when every value is 0).`,
      );
  }
  return out;
}

/** "339 requests": the finding's true count, never the length of a capped id list. */
export function requestsText(f: Finding): string {
  return countOf(f.requestCount, 'request');
}

/** "Slowest phase (p50): stage 1 decode 1,293 ms" (slowest.ts), with its caveats in parentheses. */
function slowestPhaseLines(stages: readonly StageSummary[], roles: StageRoles): string[] {
  const best = slowestPhaseOf(stages, 'p50');
  if (best === null) return [];
  return [
    `${sentenceCase(SLOWEST_PHASE_TEXT)} (p50, of a stage's own work; a downstream stage's wait for its input is not ranked): ${slowestPhaseText(best, formatMs, roles)}`,
    ...slowestPhaseCaveats(stages, best, 'p50', formatMs, roles).map((c) => `  (${c})`),
  ];
}
