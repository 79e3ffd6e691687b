// A boot selection in words (the CLI's --boot options and the editor's Compare alike): the boots
// a log has, why a selection read nothing, what it left out.
import type { BootCounts } from './types';
import { andList } from '../andList';
import { countOf } from '../numberText';

/** The boots a log has, in words: "1 (6 requests) and 2 (3 requests)". */
export function bootListText(boots: BootCounts['boots']): string {
  return andList(boots.map((b) => `${b.boot} (${countOf(b.requests, 'request')})`));
}

/** "boot 2 · 3 requests · Qwen/Qwen3-Omni-30B-A3B-Instruct" (the model when its start-up lines name it): a boot to pick. */
export function bootPickLabel(b: {
  readonly boot: number;
  readonly requests: number;
  readonly model: string | null;
}): string {
  return [`boot ${b.boot}`, countOf(b.requests, 'request'), ...(b.model === null ? [] : [b.model])].join(' · ');
}

/** Why --boot read nothing: the log has no such boot (with the boots it has); null when it has it. */
export function unknownBootProblem(counts: BootCounts | null): string | null {
  if (counts === null || counts.boots.some((b) => b.boot === counts.boot)) return null;
  if (counts.boots.length === 0) return `the log has no boot ${counts.boot}: it has no request`;
  return `the log has no boot ${counts.boot}: its boots with requests are ${bootListText(counts.boots)}`;
}

/** The boot kept and what it left out, in words (null: no boot selected). */
export function bootNoteOf(counts: BootCounts | null): string | null {
  if (counts === null || unknownBootProblem(counts) !== null) return null;
  const others = counts.boots.filter((b) => b.boot !== counts.boot);
  return (
    `Boot ${counts.boot}: the requests of server boot ${counts.boot} only; ` +
    (others.length === 0
      ? 'the log has no other boot.'
      : `${countOf(counts.outside, 'request')} of boot${others.length === 1 ? '' : 's'} ${andList(others.map((b) => b.boot))} left out.`)
  );
}

/** A session's boots as the views get them (the protocol's SessionBoots): with requests, and the pipelines they served in words. */
export interface ViewBoots {
  readonly boots: readonly { readonly boot: number; readonly requests: number; readonly model: string | null }[];
  /** One entry per pipeline (pipelineText): two or more when the boots served different ones. */
  readonly pipelines: readonly string[];
  readonly selected: number | null;
}

/** Whether numbers pooled over every boot mix different pipelines (boots-differ-in-pipeline). */
export function pipelinesDiffer(boots: ViewBoots | null | undefined): boots is ViewBoots {
  return boots !== null && boots !== undefined && boots.pipelines.length > 1;
}

/** What a notice of boots of different pipelines starts with (each pipeline follows). */
export const PIPELINES_HEAD = 'The server restarted with a different pipeline:';

/** The boots' pipelines, as the views say them where their numbers are. */
export function pipelinesText(boots: ViewBoots): string {
  return `${PIPELINES_HEAD} ${boots.pipelines.join('; ')}.`;
}

/** What numbers over every boot mean when the boots served different pipelines. */
export const POOLED_BOOTS_TEXT =
  "Numbers over all boots pool each stage id over every boot, so a stage's percentiles mix different stages (and models) and describe none of them.";

/** The boot a view keeps and what it leaves out, in bootNoteOf's words; null: every boot. */
export function viewBootNote(boots: ViewBoots): string | null {
  const selected = boots.selected;
  if (selected === null) return null;
  const outside = boots.boots.reduce((n, b) => (b.boot === selected ? n : n + b.requests), 0);
  return bootNoteOf({ boot: selected, outside, boots: boots.boots });
}
