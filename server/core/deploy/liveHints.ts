// Where the measured numbers go in a deploy config: after each stage's `stage_id`; for
// stages that only a base config defines, after `base_config`; and after
// `talker_first_audio: true`, whether the codec TTFT is recorded.
import type { DeployAnalysis } from './analysis';
import {
  codecTtftStatus,
  formatReplicaDetails,
  formatStageDetail,
  formatStageNumbers,
  INLAY_LABEL_BUDGET,
  stageNumbersFloor,
  formatTailLead,
  tablesMissingHint,
  tablesMissingMark,
  ttftWaitedNote,
  type LiveStageNumbers,
  type StageLiveNumbers,
  type TablesMissingNotice,
  type TailLead,
} from './liveNumbers';
import { PREFILL_DECODE_LABEL, PREFILL_DECODE_SHORT } from '../analysis/oneOutputStage';
import { UNSPLIT_GEN_LABEL, UNSPLIT_GEN_SHORT } from '../explain/explainTable';
import type { SourcePosition } from './sourceRange';
import { stageAnchors } from './stageAnchors';
import { talkerFirstAudioReports } from './talkerFirstAudio';
import { countOf } from '../numberText';

export interface LiveHint {
  readonly position: SourcePosition;
  readonly label: string;
  readonly tooltip: string;
}

/**
 * A stage's numbers within `budget`, then the missing-tables mark where it still fits (the
 * numbers may give up their count for it, never a phase nor a word).
 */
function numbersLabel(
  measured: StageLiveNumbers,
  missing: Omit<TablesMissingNotice, 'message'> | null,
  budget: number,
): string {
  const numbers = formatStageNumbers(measured, budget);
  if (missing === null) return numbers;
  const mark = ` · ${tablesMissingMark(missing)}`;
  const shorter = formatStageNumbers(measured, budget - mark.length);
  return shorter.length + mark.length <= budget &&
    shorter.split(' · ').length === numbers.split(' · ').length &&
    numbers.startsWith(shorter)
    ? `${shorter}${mark}`
    : numbers;
}

/** Where a hint's tooltip names the session, after its own text. */
const MEASURED_IN = '\n\nMeasured in ';

/**
 * What leads the p99 tail, in the forms the line may have room for, longest first:
 * `p99 tail: prefill+decode (one output) 90%`, `p99 tail: prefill+decode 90%`, `p99: prefill+decode 90%`.
 */
function tailLeadForms(lead: TailLead): string[] {
  const short =
    lead.part === PREFILL_DECODE_LABEL
      ? PREFILL_DECODE_SHORT
      : lead.part === UNSPLIT_GEN_LABEL
        ? UNSPLIT_GEN_SHORT
        : lead.part;
  const share = `${Math.round(lead.share * 100)}%`;
  return [...new Set([formatTailLead(lead), formatTailLead({ ...lead, part: short }), `p99: ${short} ${share}`])];
}

/**
 * The editor cuts a line's inlay hints together: editor.inlayHints.maximumLength counts every
 * label on the line, the first ones whole, the next cut to what is left (often to `…`). Past
 * the first, a hint that does not fit whole in what its line has left is not shown there; its
 * label and tooltip go into the tooltip of the line's first hint, so nothing is cut to nothing.
 */
export function fitLines(hints: readonly LiveHint[], budget = INLAY_LABEL_BUDGET): LiveHint[] {
  const kept: LiveHint[] = [];
  const first = new Map<number, { index: number; used: number }>();
  for (const hint of hints) {
    const line = first.get(hint.position.line);
    if (line === undefined) {
      first.set(hint.position.line, { index: kept.length, used: hint.label.length });
      kept.push(hint);
    } else if (line.used + hint.label.length <= budget) {
      line.used += hint.label.length;
      kept.push(hint);
    } else {
      const host = kept[line.index] as LiveHint;
      const [own, ...context] = host.tooltip.split(MEASURED_IN);
      const [other] = hint.tooltip.split(MEASURED_IN);
      kept[line.index] = {
        ...host,
        tooltip: [
          `${own}\n\nPast the editor's inlay hint length on this line: ${hint.label}\n${other}`.trimEnd(),
          ...context,
        ].join(MEASURED_IN),
      };
    }
  }
  return kept;
}

export function liveHints(analysis: DeployAnalysis, numbers: LiveStageNumbers | null): LiveHint[] {
  if (!numbers || !analysis.isDeployConfig) return [];
  const byStage = new Map(numbers.stages.map((stage) => [stage.stageId, stage]));
  const missing = numbers.tablesMissing ?? null;
  const tooltip = `${MEASURED_IN}${numbers.sessionLabel}${missing === null ? '' : `\n\n${missing.message}`}`;
  const hints: LiveHint[] = [];
  const anchors = stageAnchors(analysis);
  const none = numbers.noNumbers ?? null;
  if (none !== null) {
    // Said once, after the first stage: nothing to read off the other stages or talker_first_audio.
    const first = anchors[0];
    if (first === undefined) return [];
    return [{ position: first.entry.value.location.range.end, label: none.label, tooltip: none.detail }];
  }
  for (const anchor of anchors) {
    const measured = byStage.get(anchor.stageId);
    if (!measured) continue;
    const prefix = anchor.inherited ? `stage ${anchor.stageId}: ` : '';
    const noticed = missing !== null && hints.length === 0;
    const lead = numbers.tailLead ?? null;
    const led = lead !== null && lead.stageId === anchor.stageId;
    // The numbers and what leads the p99 tail share the line's length (fitLines): the numbers
    // give up their count first (never a word nor their "p50"), the tail lead its long forms; where
    // even the shortest pair is too long, the tail lead goes to the numbers' tooltip.
    const budget = INLAY_LABEL_BUDGET - prefix.length;
    const shortest = stageNumbersFloor(measured).length;
    const tail = led ? (tailLeadForms(lead).find((form) => shortest + form.length <= budget) ?? null) : null;
    const label = `${prefix}${numbersLabel(measured, noticed ? missing : null, budget - (tail?.length ?? 0))}`;
    // The label is short; the tooltip has every number.
    // A stage on several replicas: each replica's numbers under the stage's (a slow replica hides in the stage's p50).
    // A TTFT that waited upstream is marked in the label; what the mark means, under the numbers.
    const waitedNote = ttftWaitedNote(measured);
    const why = led
      ? `The ${lead.part} of stage ${lead.stageId} has the largest mean excess over its median in the ${countOf(lead.tailRequests, 'request')} at or above the p99 of ${lead.target} (${Math.round(lead.share * 100)}% of the tail's excess${lead.share > 1 ? ": above 100% because stages overlap, so the parts' excesses add up to more than the target's" : ''}; Stage Lens: Latency Summary, "Why p99 is slow").`
      : null;
    const detail = [
      `${prefix}${formatStageDetail(measured)}`,
      ...formatReplicaDetails(measured),
      ...(waitedNote === null ? [] : [waitedNote]),
      ...(why !== null && tail === null ? ['', `${prefix}${why}`] : []),
    ].join('\n');
    // Said once: leading the first stage's hover.
    const notice = noticed ? `${tablesMissingHint(missing)} · ` : '';
    const position = anchor.entry.value.location.range.end;
    hints.push({ position, label, tooltip: `${notice}${detail}${tooltip}` });
    if (tail !== null && why !== null) hints.push({ position, label: tail, tooltip: `${prefix}${why}${tooltip}` });
  }
  for (const report of talkerFirstAudioReports(analysis.effective.root)) {
    if (report.flag.value.location.file !== analysis.file.path) continue;
    const status = codecTtftStatus(numbers, report.codecs);
    if (status !== undefined)
      hints.push({
        position: report.flag.value.location.range.end,
        label: status.label,
        tooltip: `${status.detail}${tooltip}`,
      });
  }
  return fitLines(hints);
}
