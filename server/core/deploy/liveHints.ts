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
  formatTailLead,
  tablesMissingHint,
  tablesMissingMark,
  type LiveStageNumbers,
  type StageLiveNumbers,
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
 * numbers may give up their count for it, never a phase).
 */
function numbersLabel(
  measured: StageLiveNumbers,
  missing: { readonly requests: number; readonly of: number; readonly all: boolean } | null,
  budget: number,
): string {
  const numbers = formatStageNumbers(measured, budget);
  if (missing === null) return numbers;
  const mark = ` · ${tablesMissingMark(missing)}`;
  const shorter = formatStageNumbers(measured, budget - mark.length);
  return shorter.length + mark.length <= budget && shorter.split(' · ').length === numbers.split(' · ').length
    ? `${shorter}${mark}`
    : numbers;
}

/** `p99 tail: decode 85%` within the budget: a one-output stage's part without "(one output)", an unsplit gen time without its parenthesis, where they must. */
function tailLeadLabel(lead: TailLead, prefix: string): string {
  const label = `${prefix}${formatTailLead(lead)}`;
  if (label.length <= INLAY_LABEL_BUDGET) return label;
  const short =
    lead.part === PREFILL_DECODE_LABEL
      ? PREFILL_DECODE_SHORT
      : lead.part === UNSPLIT_GEN_LABEL
        ? UNSPLIT_GEN_SHORT
        : lead.part;
  return `${prefix}${formatTailLead({ ...lead, part: short })}`;
}

export function liveHints(analysis: DeployAnalysis, numbers: LiveStageNumbers | null): LiveHint[] {
  if (!numbers || !analysis.isDeployConfig) return [];
  const byStage = new Map(numbers.stages.map((stage) => [stage.stageId, stage]));
  const missing = numbers.tablesMissing ?? null;
  const tooltip = `Measured in ${numbers.sessionLabel}${missing === null ? '' : `\n\n${missing.message}`}`;
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
    const label = `${prefix}${numbersLabel(measured, noticed ? missing : null, INLAY_LABEL_BUDGET - prefix.length)}`;
    // The label is short (the editor cuts long inlay hints: editor.inlayHints.maximumLength); the tooltip has every number.
    // A stage on several replicas: each replica's numbers under the stage's (a slow replica hides in the stage's p50).
    const detail = [`${prefix}${formatStageDetail(measured)}`, ...formatReplicaDetails(measured)].join('\n');
    // Said once: leading the first stage's hover.
    const notice = noticed ? `${tablesMissingHint(missing)} · ` : '';
    const position = anchor.entry.value.location.range.end;
    hints.push({ position, label, tooltip: `${notice}${detail}\n\n${tooltip}` });
    const lead = numbers.tailLead ?? null;
    if (lead === null || lead.stageId !== anchor.stageId) continue;
    // A hint of its own after the numbers, so that the editor's cut of a long label takes
    // neither: the numbers and what leads the p99 tail each fit on their own.
    const why = `The ${lead.part} of stage ${lead.stageId} has the largest mean excess over its median in the ${countOf(lead.tailRequests, 'request')} at or above the p99 of ${lead.target} (${Math.round(lead.share * 100)}% of the tail's excess${lead.share > 1 ? ": above 100% because stages overlap, so the parts' excesses add up to more than the target's" : ''}; Stage Lens: Latency Summary, "Why p99 is slow").`;
    hints.push({ position, label: tailLeadLabel(lead, prefix), tooltip: `${prefix}${why}\n\n${tooltip}` });
  }
  for (const report of talkerFirstAudioReports(analysis.effective.root)) {
    if (report.flag.value.location.file !== analysis.file.path) continue;
    const status = codecTtftStatus(numbers, report.codecs);
    if (status !== undefined)
      hints.push({
        position: report.flag.value.location.range.end,
        label: status.label,
        tooltip: `${status.detail}\n\n${tooltip}`,
      });
  }
  return hints;
}
