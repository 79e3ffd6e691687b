// A request that prints again what an earlier request of its id printed: the same lines read
// twice (a log concatenated with itself, a rotated file gathered twice). vLLM-Omni prints each
// record of a request once, but one request's records may come apart (another request's
// records between them, one stage table per stage): those print different records, so only a
// record of the same kind (a stage table: for a stage already printed) counts as a repeat.
// The kinds are bits kept beside each request key's count in RequestAssembler, so this costs
// no memory of its own, and the key is the real id: two requests are never mixed up by a hash.
// Stage columns share 12 bits (stage id + 5 per segment, modulo 12): only a pipeline of more
// stages than that, printing one stage table per stage, could read two stages as one.
import type { OmniTimingRecord, RequestE2ERecord, StageTableRecord, TransferTableRecord } from '../records';
import { countOf, groupedNumber } from '../numberText';
import type { AnalyzedRequest, RequestRepeat } from './types';

const E2E_RECORD = 1;
const TIMING_RECORD = 2;
const TRANSFER_RECORD = 4;
export const LEGACY_DICT_RECORD = 8;
/** One bit per stage column of a stage table, by stage id and segment modulo STAGE_BITS. */
const STAGE_SHIFT = 4;
const STAGE_BITS = 12;
/** The key's id was repeated already: the next repeat is not its first. */
const REPEATED = 1 << (STAGE_SHIFT + STAGE_BITS);

function stageColumnBit(stageId: number | null, segment: number): number {
  const index = ((stageId ?? 0) + (segment - 1) * 5) % STAGE_BITS;
  return 1 << (STAGE_SHIFT + (index < 0 ? index + STAGE_BITS : index));
}

/** The record-kind bits of one record of a request. */
export function recordKindsOf(
  record: RequestE2ERecord | OmniTimingRecord | StageTableRecord | TransferTableRecord,
): number {
  switch (record.kind) {
    case 'requestE2E':
      return E2E_RECORD;
    case 'omniTiming':
      return TIMING_RECORD;
    case 'transferTable':
      return TRANSFER_RECORD;
    case 'stageTable': {
      let bits = 0;
      for (const column of record.columns) bits |= stageColumnBit(column.stageId, column.segment);
      return bits;
    }
  }
}

/**
 * Given the bits of the earlier requests of a key and a finished request's, the key's bits
 * after it and whether that request repeats a record (`first`: the first repeat of the id).
 */
export function repeatedRecord(earlier: number, kinds: number): { next: number; repeat: RequestRepeat | undefined } {
  if ((earlier & kinds) === 0) return { next: earlier | kinds, repeat: undefined };
  return { next: earlier | kinds | REPEATED, repeat: (earlier & REPEATED) === 0 ? 'first' : 'again' };
}

/** The id of the earlier request a repeat repeats: its own without the `#N` the assembler adds. */
export function repeatedIdOf(requestId: string): string {
  const hash = requestId.lastIndexOf('#');
  return hash === -1 ? requestId : requestId.slice(0, hash);
}

/** Counts the repeats among requests as they come, for the finding (and the CSV's note on stderr). */
export class RepeatTally {
  /** Requests that repeat, and ids repeated (each id's first repeat). */
  private repeats = 0;
  private ids = 0;
  private example: { readonly requestId: string; readonly line: number } | null = null;

  /** Whether the request repeats an earlier one. */
  add(request: AnalyzedRequest): boolean {
    if (request.repeat === undefined) return false;
    this.repeats += 1;
    if (request.repeat === 'first') this.ids += 1;
    // The earliest in the log, whatever order the requests come in (a window lists the newest first).
    if (this.example === null || request.line < this.example.line)
      this.example = { requestId: request.requestId, line: request.line };
    return true;
  }

  /** What the repeats mean, over `total` requests read; null without any. */
  message(total: number): string | null {
    if (this.repeats === 0) return null;
    const e = this.example;
    const example = e === null ? '' : ` (e.g. ${repeatedIdOf(e.requestId)}, again at line ${e.line} as ${e.requestId})`;
    return (
      `${countOf(this.ids, 'request id was', 'request ids were')} seen more than once: ${countOf(this.repeats, 'request prints', 'requests print')} again a record an earlier request of the same id printed${example}. ` +
      'vLLM-Omni prints each record of a request (a table, an [OmniTiming] line) once, so the log most likely holds the same lines twice (log files concatenated, a rotated file gathered twice, a log copied into itself). ' +
      `Each repeat still counts as a request of its own, named <id>#2, <id>#3: of the ${groupedNumber(total, 0, 0)} requests read, ${groupedNumber(this.repeats, 0, 0)} ${this.repeats === 1 ? 'is a repeat' : 'are repeats'}, so request counts and throughput include them and percentiles weigh those requests twice. ` +
      'If the lines are a copy, read the log without it; if the server reused request ids (a restart), they are different requests and the numbers stand.'
    );
  }
}
