// The "Omni Metrics Summary" block of the unmerged vllm-omni#3069 (real-logs 12), which only a
// server built from that branch prints:
//   ============ Omni Metrics Summary ============
//   Total E2E time (ms):                           137,337.674
//   ------------ Overall Time Breakdown ------------
//   Stage 0 queue wait time (ms):                  208,619.139
// Its `Label: value` lines are kept as a legacyDict record, keys snake_cased and prefixed
// by their section (`overall_time_breakdown.stage_0_queue_wait_time_ms`).
import type { LegacyDictRecord, LogHeader } from '../records';
import { CONSUMED, FINISHED, REJECTED, type FeedResult, type OpenRecord, type ParseContext } from './openRecord';
import { ownCopy, isSafeKey } from './strings';

export const METRICS_SUMMARY_FORMAT = 'omni metrics summary (unmerged PR #3069)';
const START = /^=+ *Omni Metrics Summary *=+\s*$/;
const END = /^=+\s*$/;
const ENTRY = /^([A-Za-z][^:]{0,100}):\s+(\S+)\s*$/;
/** A label without its value: the line was cut. */
const CUT_ENTRY = /^[A-Z][A-Za-z0-9 ()>_/-]{0,100}$/;
const MAX_VALUES = 1000;

export function isMetricsSummaryStart(message: string): boolean {
  return message.charCodeAt(0) === 61 /* = */ && START.test(message);
}

function snakeCase(label: string): string {
  return trimUnderscores(label.toLowerCase().replace(/[^a-z0-9]+/g, '_'));
}

function trimUnderscores(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 95 /* _ */) start++;
  while (end > start && text.charCodeAt(end - 1) === 95 /* _ */) end--;
  return text.slice(start, end);
}

/**
 * The title of a `------ Title ------` line (at least three dashes on each side; the
 * text is already trimmed), or null. Read by hand: the pattern that read it,
 * `/^-{3,} *(.*?) *-{3,}\s*$/`, backtracked cubically on a line of dashes (22 s at 4 KB).
 */
export function sectionTitle(text: string): string | null {
  let start = 0;
  while (text.charCodeAt(start) === 45 /* - */) start++;
  if (start < 3) return null;
  if (start === text.length) return start >= 6 ? '' : null; // dashes only: three and three
  let end = text.length;
  while (text.charCodeAt(end - 1) === 45 /* - */) end--;
  if (text.length - end < 3) return null;
  while (start < end && text.charCodeAt(start) === 32 /* space */) start++;
  while (end > start && text.charCodeAt(end - 1) === 32 /* space */) end--;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */ || c === 13 /* \r */ || c === 0x2028 /* U+2028 */ || c === 0x2029 /* U+2029 */) return null; // a title never spans a line terminator (what `.` of a regular expression excludes)
  }
  return text.slice(start, end);
}

export class MetricsSummaryCollector implements OpenRecord {
  rawPrefix: string | null;
  private readonly values: Record<string, number | string> = {};
  private count = 0;
  private section = '';
  private cutLine = 0;

  constructor(
    private readonly ctx: ParseContext,
    readonly key: string,
    readonly processKey: string | null,
    readonly header: LogHeader | null,
    rawPrefix: string | null,
    private readonly startLine: number,
  ) {
    this.rawPrefix = rawPrefix;
  }

  feed(src: string, a: number, b: number, lineNo: number): FeedResult {
    const text = src.slice(a, b).trim();
    if (text === '') return CONSUMED;
    if (END.test(text)) {
      this.emit();
      return FINISHED;
    }
    const section = sectionTitle(text);
    if (section !== null) {
      this.section = snakeCase(section);
      return CONSUMED;
    }
    const entry = ENTRY.exec(text);
    if (entry !== null) {
      const key = (this.section === '' ? '' : `${this.section}.`) + snakeCase(entry[1] as string);
      const raw = entry[2] as string;
      const n = this.ctx.cells.exactNumber(raw, 0, raw.length);
      if (this.count < MAX_VALUES && isSafeKey(key)) {
        this.count++;
        this.values[ownCopy(key)] = Number.isNaN(n) ? ownCopy(raw) : n;
      }
      return CONSUMED;
    }
    if (CUT_ENTRY.test(text)) {
      this.cutLine = lineNo;
      return CONSUMED;
    }
    return REJECTED;
  }

  close(): void {
    this.emit();
  }

  private emit(): void {
    const complete = this.cutLine === 0;
    const record: LegacyDictRecord = {
      kind: 'legacyDict',
      line: this.startLine,
      header: this.header,
      format: METRICS_SUMMARY_FORMAT,
      requestId: null,
      values: this.values,
      complete,
    };
    this.ctx.sink.record(record);
    if (!complete) {
      this.ctx.sink.problem(
        this.startLine,
        `"Omni Metrics Summary" block (layout of the unmerged PR #3069) starting at line ${this.startLine} was cut off at line ${this.cutLine} (${this.count} values read)`,
      );
    }
  }
}
