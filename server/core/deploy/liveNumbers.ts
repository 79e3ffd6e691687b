// Measured headline numbers of a session, per stage, as the editor shows them next to a
// deploy config, and how they read. "Not recorded" is never shown as 0: a codec TTFT of 0
// with no prefill is the signature of builds without the talker-first-audio stats fix.
import { groupedNumber } from '../numberText';
import { PREFILL_DECODE_LABEL } from '../analysis/oneOutputStage';
import type { Finding } from '../analysis/types';
import { TTFT_WAITED_MARK, TTFT_WAITED_TEXT } from '../analysis/ttftUpstreamWait';
import { NO_NUMBER_WORD, type NoNumberState } from '../values';

/** The phases a stage's hover names, with or without a number. */
export type LivePhase = 'ttft' | 'prefill' | 'decode' | 'queued' | 'inputWait' | 'readyQueued';

export interface StageLiveNumbers {
  readonly stageId: number;
  /** p50 of `vllm_ttft_ms` over measured values; null when never measured. */
  readonly ttftP50Ms: number | null;
  /** p50 of `vllm_prefill_ms` where it is prefill alone. */
  readonly prefillP50Ms: number | null;
  /**
   * p50 of `vllm_prefill_ms` on requests where the stage emitted one output (Model Runner V2
   * + async chunk): prefill+decode, never shown as prefill. Absent or null: none.
   */
  readonly prefillDecodeP50Ms?: number | null;
  /** p50 of `vllm_decode_ms`; absent or null when never measured (and on a one-output stage). */
  readonly decodeP50Ms?: number | null;
  readonly queuedP50Ms: number | null;
  /**
   * p50s of the two parts of a downstream stage's queued time, where it prints the split: the
   * wait for its input from upstream, then the wait for the scheduler. Absent or null: no split.
   */
  readonly inputWaitP50Ms?: number | null;
  readonly readyQueuedP50Ms?: number | null;
  /**
   * Every value behind it is a 0 inferred from a hidden row whose other half of the split is
   * measured (so a measured 0, by the documented rule): shown `≈`, as the views show it.
   */
  readonly readyQueuedInferred?: boolean;
  /**
   * The phases with no number on this stage and why, as the CLI's table and the side panel word
   * them (not measured: None; hidden: zero or not measured; not recorded): the hover names them,
   * never leaves them out. Absent: every phase shown has a number, or is not shown at all.
   */
  readonly noNumber?: Readonly<Partial<Record<LivePhase, NoNumberState>>>;
  /** A downstream stage that prints no split: its queued time includes the wait for upstream input. */
  readonly queuedIncludesInputWait?: boolean;
  /** Requests of this stage the figures are over. */
  readonly n: number;
  /** The stage's TTFT is not recorded (codec `vllm_ttft_ms` 0 with no prefill): build without the fix. */
  readonly ttftNotRecorded: boolean;
  /**
   * Requests of the stage whose TTFT includes a wait for upstream output (finding
   * ttft-includes-upstream-wait): its TTFT carries TTFT_WAITED_MARK, as in the CLI's table and
   * the side panel. A replica carries its stage's count. Absent or 0: none.
   */
  readonly ttftWaitedRequests?: number;
  /** p50 of the stage's time (stage_gen_time_ms, or [OmniTiming]'s seconds when the tables are missing), ms. */
  readonly stageTimeP50Ms?: number | null;
  /**
   * A downstream stage of a session whose stages ran at the same time on most requests (finding
   * stage-times-overlap): its stage time holds the upstream time it ran alongside.
   */
  readonly alongsideUpstream?: boolean;
  /** A stage that ran on several replicas: each replica's numbers, by replica id (the hover lists them; the label is the stage's). */
  readonly replicas?: readonly ReplicaLiveNumbers[];
}

/** One replica's numbers of a stage that ran on several. */
export interface ReplicaLiveNumbers extends Omit<StageLiveNumbers, 'replicas'> {
  readonly replicaId: number;
}

/**
 * Whether the stages ran at the same time on most of `requestCount` requests: the finding
 * stage-times-overlap concerns at least half of them.
 */
export function stagesRanAlongside(findings: readonly Finding[], requestCount: number): boolean {
  const overlap = findings.find((f) => f.code === 'stage-times-overlap');
  return overlap !== undefined && overlap.requestCount * 2 >= requestCount;
}

export interface LiveStageNumbers {
  /** The session the numbers come from, for the tooltip (`launch: vllm serve …`). */
  readonly sessionLabel: string;
  readonly stages: readonly StageLiveNumbers[];
  /**
   * Set when the session's requests have only [OmniTiming] lines (no stats tables: the server
   * ran at INFO, or, with `debugLines`, its stats logger was above DEBUG or the tables were cut
   * out; with `cutOut`, they were cut out): the full notice, for the tooltip. `all`: no request has them.
   */
  readonly tablesMissing?: TablesMissingNotice | null;
  /**
   * The stage whose part leads the p99 tail of the session's main target (the part with the
   * largest mean excess over its median, within each tail request): its hint says so.
   * Absent or null: no tail yet, or no part stands out.
   */
  readonly tailLead?: TailLead | null;
  /**
   * Why the session has no stage numbers to show (it reads only /metrics, it has read no request
   * yet, it ended without one): the first stage's hint says so instead of going blank.
   * Absent or null: it has numbers.
   */
  readonly noNumbers?: NoStageNumbers | null;
}

/** A session's missing-tables notice (TablesMissing of server/core/analysis). */
export interface TablesMissingNotice {
  readonly requests: number;
  readonly of: number;
  readonly all: boolean;
  readonly message: string;
  /** The log has a line at DEBUG: the server did not run at INFO. */
  readonly debugLines?: true;
  /** A stats table was printed at DEBUG and no request has its tables: they were cut out of the log read. */
  readonly cutOut?: true;
}

/** The hint shown instead of numbers: `label` within INLAY_LABEL_BUDGET, `detail` whole (its tooltip). */
export interface NoStageNumbers {
  readonly label: string;
  readonly detail: string;
}

export interface TailLead {
  readonly stageId: number;
  /** `prefill`, `input wait`, ... (prefill+decode for a one-output stage). */
  readonly part: string;
  /** The part's share of the tail's mean excess (0..1, may exceed 1 where stages overlap). */
  readonly share: number;
  /** `time to first output of stage 1`, `end-to-end time`. */
  readonly target: string;
  readonly tailRequests: number;
}

/** `p99 tail: input wait 62%` (the target is in the tooltip; above 100% where stages overlap). */
export function formatTailLead(lead: TailLead): string {
  return `p99 tail: ${lead.part} ${Math.round(lead.share * 100)}%`;
}

/** The notice's short form, leading the first stage's hover: what is missing and the fix. */
export function tablesMissingHint(missing: Omit<TablesMissingNotice, 'message'>): string {
  // Stats tables printed at DEBUG and none per request: the log read was cut.
  if (missing.cutOut === true)
    return 'no phase split: the stage tables were cut out of the log read (fix: the whole log)';
  // A log with DEBUG lines: the server did not log at INFO; the stats logger's level is what to check.
  const debug = missing.debugLines === true;
  const what = !missing.all
    ? `${missing.requests} of ${missing.of} requests without stats tables`
    : debug
      ? 'no phase split: no stats tables, though the log has DEBUG lines'
      : 'no phase split: the server logs at INFO';
  return `${what} (fix: ${debug ? 'vllm_omni.metrics.stats at DEBUG' : 'VLLM_LOGGING_LEVEL=DEBUG'})`;
}

/**
 * The notice's mark after the first stage's numbers, where the label has room: the numbers
 * come first (the editor cuts a label at INLAY_LABEL_BUDGET), the notice is in the hover.
 */
export function tablesMissingMark(missing: Omit<TablesMissingNotice, 'message'>): string {
  if (!missing.all) return `${missing.requests}/${missing.of} no stats tables`;
  return missing.debugLines === true ? 'no split: no tables' : 'no split: INFO log';
}

/** Below 10 ms, one decimal at most: `0.4 ms`; a negative that rounds to nothing reads `0 ms`. */
function smallMs(ms: number): string {
  const text = groupedNumber(ms, 0, 1);
  return `${text === '-0' ? '0' : text} ms`;
}

export function formatMs(ms: number): string {
  if (Math.abs(ms) < 10) return smallMs(ms);
  return `${groupedNumber(Math.round(ms), 0, 0)} ms`;
}

/**
 * VS Code's default `editor.inlayHints.maximumLength` (src/vs/editor/common/config/editorOptions.ts,
 * EditorInlayHints: `maximumLength: 43`): inlayHintsController.ts adds up the label lengths of a
 * line and, past it, cuts the label that crosses it to `…` and shows none after. A label of 43 is whole.
 */
export const INLAY_LABEL_BUDGET = 43;

/** `0.4 ms`, `39 ms`, `1.27 s`, `25.4 s`, `125 s`: few characters, three significant digits at most. */
export function compactMs(ms: number): string {
  const abs = Math.abs(ms);
  // Rounded half away from zero on the decimal digits (groupedNumber), as every other view
  // rounds: toFixed rounds the binary value, so 1,275 ms would read 1.27 s here, 1.28 s there.
  if (abs < 10) return smallMs(ms);
  if (Math.round(abs) < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (Math.abs(s) < 9.995) return `${groupedNumber(s, 0, 2)} s`;
  if (Math.abs(s) < 99.95) return `${groupedNumber(s, 1, 1)} s`;
  return `${groupedNumber(Math.round(s), 0, 0)} s`;
}

/** `TTFT 153 ms†`: the mark on a TTFT that waited upstream (ttftUpstreamWait.ts), none elsewhere. */
function ttftMark(numbers: StageLiveNumbers): string {
  return (numbers.ttftWaitedRequests ?? 0) > 0 ? TTFT_WAITED_MARK : '';
}

/**
 * `† TTFT includes a wait for upstream output: … on 1 of 6 requests.`: what the mark on the
 * stage's TTFT means, for its tooltip; null where its TTFT is unmarked.
 */
export function ttftWaitedNote(numbers: StageLiveNumbers): string | null {
  const waited = numbers.ttftWaitedRequests ?? 0;
  if (waited === 0 || numbers.ttftNotRecorded || numbers.ttftP50Ms === null) return null;
  return `${TTFT_WAITED_MARK} ${TTFT_WAITED_TEXT}, on ${waited} of ${numbers.n} request${numbers.n === 1 ? '' : 's'}.`;
}

/** The queued time as the hint names it: input wait and ready queued where split, else queued (and the split's state, where the session has one). */
function queuedParts(numbers: StageLiveNumbers): [string, number | null, string, LivePhase][] {
  const inputWait = numbers.inputWaitP50Ms ?? null;
  const readyQueued: [string, number | null, string, LivePhase] = [
    'ready queued',
    numbers.readyQueuedP50Ms ?? null,
    numbers.readyQueuedInferred === true ? '≈' : '',
    'readyQueued',
  ];
  if (inputWait === null)
    return [['queued', numbers.queuedP50Ms, '', 'queued'], ['input wait', null, '', 'inputWait'], readyQueued];
  return [['input wait', inputWait, '', 'inputWait'], readyQueued];
}

/** The stage's phases measured, largest first. */
function phasesBySize(numbers: StageLiveNumbers): { readonly name: string; readonly ms: number }[] {
  const combined = numbers.prefillDecodeP50Ms ?? null;
  const phases: [string, number | null][] = [
    ['prefill', numbers.prefillP50Ms],
    ['prefill+decode', combined],
    // A one-output stage's decode is inside its prefill+decode figure.
    ['decode', combined === null ? (numbers.decodeP50Ms ?? null) : null],
    // Where the split is printed, its parts stand for the queued time they add up to.
    // A ready queued time inferred from hidden rows is no measured phase to lead with.
    ...queuedParts(numbers).map(([name, ms, mark]): [string, number | null] => [name, mark === '' ? ms : null]),
  ];
  return phases
    .filter((p): p is [string, number] => p[1] !== null)
    .map(([name, ms]) => ({ name, ms }))
    .sort((a, b) => b.ms - a.ms);
}

/** A TTFT not recorded, in the label; its short form where the label has no room for it. */
const TTFT_NOT_RECORDED = 'TTFT not recorded';
const TTFT_UNRECORDED = 'TTFT unrecorded';

/** The label's parts: the largest phase (if any) and the TTFT (if measured or not recorded), the other phases. */
function labelParts(numbers: StageLiveNumbers): { lead: string[]; rest: string[] } {
  const [largest, ...rest] = phasesBySize(numbers).map((p) => `${p.name} ${compactMs(p.ms)}`);
  const ttft = numbers.ttftNotRecorded
    ? TTFT_NOT_RECORDED
    : numbers.ttftP50Ms === null
      ? null
      : `TTFT ${compactMs(numbers.ttftP50Ms)}${ttftMark(numbers)}`;
  return { lead: [largest, ttft].filter((x): x is string => x !== undefined && x !== null), rest };
}

/** `p50 decode 25.4 s · TTFT 96 ms`: a TTFT not recorded leading the label has no percentile. */
function labelText(parts: readonly string[], suffix: string): string {
  const head = parts[0] === TTFT_NOT_RECORDED || parts[0] === TTFT_UNRECORDED ? '' : 'p50 ';
  return `${head}${parts.join(' · ')}${suffix}`;
}

/**
 * The shortest label with the largest phase and the TTFT in their long words (no count): what
 * the stage's numbers keep before the line gives room to anything else (the p99 tail lead).
 */
export function stageNumbersFloor(numbers: StageLiveNumbers): string {
  const { lead } = labelParts(numbers);
  return lead.length === 0
    ? formatStageNumbers(numbers, Number.POSITIVE_INFINITY).replace(/ \(n=\d+\)$/, '')
    : labelText(lead, '');
}

/**
 * The inlay hint after a stage's stage_id, within `budget` characters: `p50 decode 25.4 s ·
 * TTFT 96 ms (n=3)`. The largest phase first, then TTFT, then the other phases and the request
 * count while they fit. Past the budget, the count goes first, then "TTFT not recorded" is said
 * `TTFT unrecorded`, then the TTFT goes (its tooltip has it); the largest phase, its "p50" and
 * its unit always stay, so no number is cut. formatStageDetail is the whole.
 */
export function formatStageNumbers(numbers: StageLiveNumbers, budget = INLAY_LABEL_BUDGET): string {
  const { lead, rest } = labelParts(numbers);
  const count = ` (n=${numbers.n})`;
  if (lead.length === 0) {
    const stageTime = numbers.stageTimeP50Ms ?? null;
    if (stageTime === null) return `no phase split measured${count}`;
    // Past the budget: the count, then the word "time", then "incl. upstream" (the tooltip says it whole).
    const alongside = numbers.alongsideUpstream === true ? ' incl. upstream' : '';
    const text = `p50 stage time ${compactMs(stageTime)}${alongside}`;
    const forms = [`${text}${count}`, text, `p50 stage ${compactMs(stageTime)}${alongside}`];
    return forms.find((form) => form.length <= budget) ?? `p50 stage time ${compactMs(stageTime)}`;
  }
  const items = [...lead];
  for (const phase of rest) {
    if (labelText([...items, phase], count).length > budget) break;
    items.push(phase);
  }
  const shorter = lead.map((part) => (part === TTFT_NOT_RECORDED ? TTFT_UNRECORDED : part));
  const forms = [labelText(items, count), labelText(lead, ''), labelText(shorter, ''), labelText(lead.slice(0, 1), '')];
  return forms.find((form) => form.length <= budget) ?? (forms[forms.length - 1] as string);
}

/**
 * `TTFT p50 41 ms · prefill p50 39 ms · decode hidden · queued p50 0.4 ms (n=120)`: every number
 * of the stage, and every phase without one said as such, for the hint's tooltip.
 */
export function formatStageDetail(numbers: StageLiveNumbers): string {
  const parts: string[] = [];
  const none = (phase: LivePhase, name: string): void => {
    const state = numbers.noNumber?.[phase];
    if (state !== undefined) parts.push(`${name} ${NO_NUMBER_WORD[state]}`);
  };
  if (numbers.ttftNotRecorded) parts.push('TTFT not recorded');
  else if (numbers.ttftP50Ms !== null) parts.push(`TTFT p50 ${formatMs(numbers.ttftP50Ms)}${ttftMark(numbers)}`);
  else none('ttft', 'TTFT');
  if (numbers.prefillP50Ms !== null) parts.push(`prefill p50 ${formatMs(numbers.prefillP50Ms)}`);
  else none('prefill', 'prefill');
  const combined = numbers.prefillDecodeP50Ms ?? null;
  if (combined !== null) parts.push(`${PREFILL_DECODE_LABEL} p50 ${formatMs(combined)}`);
  const decode = combined === null ? (numbers.decodeP50Ms ?? null) : null;
  if (decode !== null) parts.push(`decode p50 ${formatMs(decode)}`);
  else if (combined === null) none('decode', 'decode');
  for (const [name, ms, mark, phase] of queuedParts(numbers))
    if (ms === null) none(phase, name);
    else
      parts.push(
        `${name} p50 ${mark}${formatMs(ms)}${mark === '' ? '' : ' (inferred 0: hidden row, other half of the split measured)'}${name === 'queued' && numbers.queuedIncludesInputWait === true ? ' (includes the wait for upstream input)' : ''}`,
      );
  const shown = numbers.ttftNotRecorded || parts.some((part) => part.includes(' p50 '));
  if (!shown && numbers.stageTimeP50Ms !== undefined && numbers.stageTimeP50Ms !== null)
    return `stage time p50 ${formatMs(numbers.stageTimeP50Ms)}${numbers.alongsideUpstream === true ? ' incl. the upstream time it ran alongside' : ''} (n=${numbers.n})`;
  const head = shown ? parts.join(' · ') : 'no phase split measured';
  return `${head} (n=${numbers.n})`;
}

/** `replica 0: decode p50 508 ms · … (n=4)`, one per replica of a stage that ran on several; none for a stage on one. */
export function formatReplicaDetails(numbers: StageLiveNumbers): string[] {
  return (numbers.replicas ?? []).map((r) => `replica ${r.replicaId}: ${formatStageDetail(r)}`);
}

/** What the hint after `talker_first_audio` says: `label` within INLAY_LABEL_BUDGET, `detail` whole (its tooltip). */
export interface CodecTtftStatus {
  readonly label: string;
  readonly detail: string;
}

/**
 * Whether the codec TTFT under talker first audio is being recorded. `codecs` are the
 * codec stage ids of the config; when unknown, any stage showing the signature counts.
 */
export function codecTtftStatus(numbers: LiveStageNumbers, codecs: readonly number[]): CodecTtftStatus | undefined {
  const same = (text: string): CodecTtftStatus => ({ label: text, detail: text });
  const missing = numbers.tablesMissing;
  if (missing?.all === true)
    return same(`codec TTFT unknown: no stats tables${missing.debugLines === true ? '' : ' (INFO)'}`);
  const candidates = numbers.stages.filter((stage) =>
    codecs.length > 0 ? codecs.includes(stage.stageId) : stage.ttftNotRecorded,
  );
  const lying = candidates.filter((stage) => stage.ttftNotRecorded);
  if (lying.length > 0) {
    const ids = lying.map((stage) => stage.stageId).join(', ');
    return {
      label: 'codec TTFT not recorded (no stats fix)',
      detail: `codec TTFT not recorded (stage ${ids}: vllm_ttft_ms 0 with no prefill: build without the stats fix)`,
    };
  }
  const recorded = candidates.filter((stage) => stage.ttftP50Ms !== null);
  if (recorded.length > 0) {
    const each = (format: (ms: number) => string): string =>
      recorded
        .map((stage) => `stage ${stage.stageId} p50 ${format(stage.ttftP50Ms ?? 0)}${ttftMark(stage)}`)
        .join(', ');
    const notes = recorded.map(ttftWaitedNote).filter((note): note is string => note !== null);
    const forms = [
      `codec TTFT recorded (${each(compactMs)})`,
      `codec TTFT recorded (stages ${recorded.map((stage) => stage.stageId).join(', ')})`,
    ];
    return {
      label: forms.find((form) => form.length <= INLAY_LABEL_BUDGET) ?? 'codec TTFT recorded',
      detail: [`codec TTFT recorded (${each(formatMs)})`, ...notes].join('\n'),
    };
  }
  if (codecs.length > 0) {
    // Where the stage ids do not fit, the tooltip names them.
    const detail = `codec TTFT: no measurement for stage ${codecs.join(', ')} yet`;
    return { label: detail.length <= INLAY_LABEL_BUDGET ? detail : 'codec TTFT: no measurement yet', detail };
  }
  return undefined;
}

/** codecTtftStatus's whole sentence. */
export function formatCodecTtftStatus(numbers: LiveStageNumbers, codecs: readonly number[]): string | undefined {
  return codecTtftStatus(numbers, codecs)?.detail;
}
