// `analyze --format csv`: one row per request and stage. Split cells hold the number,
// or a word for why there is none: `none` (printed None), `hidden` (row hidden: zero or
// not measured), `not-recorded` (a known lie, e.g. codec TTFT without the fix).
// Inferred values are numbers; the `<name>_state` columns say which state each has.
// `prefill_covers_decode` true: the stage emitted one output, so its prefillMs is
// prefill+decode (oneOutputStage.ts), not prefill alone.
import type { AnalyzedRequest, SplitName } from '../analysis/types';
import { SPLIT_NAMES } from '../analysis/types';
import { numberOf } from '../values';
import { prefillCoversDecode } from '../analysis/oneOutputStage';

const STAGE_FIELDS = ['stage_gen_time_ms', 'serving_time_to_first_output_ms', 'num_tokens_in', 'num_tokens_out', 'audio_duration_s', 'vllm_num_preemptions'] as const;

const STATE_WORD = { notMeasured: 'none', hidden: 'hidden', notRecorded: 'not-recorded' } as const;

export function csvEscape(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export const CSV_HEADER = [
  'request_id', 'boot', 'cold', 'line', 'stage', 'stage_id', 'replica_id', 'kind',
  ...SPLIT_NAMES, ...SPLIT_NAMES.map((n) => `${n}_state`), ...STAGE_FIELDS, 'added_time_to_first_output_ms', 'prefill_covers_decode',
];

function splitCell(request: AnalyzedRequest, stageIndex: number, name: SplitName): string {
  const split = request.stages[stageIndex]!.split;
  const value = split.values[name];
  if (value !== null) return String(value);
  const state = split.states[name];
  return state === 'measured' || state === 'inferred' ? '' : STATE_WORD[state];
}

export function csvRows(requests: readonly AnalyzedRequest[]): string[] {
  const lines = [CSV_HEADER.join(',')];
  for (const r of requests) {
    r.stages.forEach((s, i) => {
      const fieldCells = STAGE_FIELDS.map((f) => {
        const cell = s.fields[f];
        if (cell === undefined) return 'hidden';
        if (cell.state === 'notMeasured') return 'none';
        return cell.state === 'measured' ? String(numberOf(s.fields, f)) : cell.value;
      });
      const added = r.derived.addedTimeToFirstOutputMs[s.stageKey];
      lines.push(
        [
          csvEscape(r.requestId), String(r.boot), String(r.cold), String(r.line), csvEscape(s.stageKey), s.stageId === null ? '' : String(s.stageId), String(s.replicaId), s.kind,
          ...SPLIT_NAMES.map((n) => splitCell(r, i, n)), ...SPLIT_NAMES.map((n) => s.split.states[n]), ...fieldCells.map(csvEscape), added === undefined ? '' : String(added), String(prefillCoversDecode(r, s)),
        ].join(','),
      );
    });
  }
  return lines;
}
