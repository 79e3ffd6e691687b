// The "Omni Metrics Summary" block of the unmerged PR #3069 (real-logs 12), which only a
// server built from that branch prints:
//   ============ Omni Metrics Summary ============
//   Total E2E time (ms):                           137,337.674
//   ------------ Overall Time Breakdown ------------
//   Stage 0 queue wait time (ms):                  208,619.139
// Its `Label: value` lines are kept as a legacyDict record, keys snake_cased and prefixed
// by their section (`overall_time_breakdown.stage_0_queue_wait_time_ms`).
import type { LegacyDictRecord, LogHeader } from '../records';
import { scanNumber } from './cells';
import { CONSUMED, FINISHED, REJECTED, type FeedResult, type OpenRecord, type ParseContext } from './openRecord';
import { detach, isSafeKey } from './strings';

export const METRICS_SUMMARY_FORMAT = 'omni metrics summary (unmerged PR #3069)';
const START = /^=+ *Omni Metrics Summary *=+\s*$/;
const END = /^=+\s*$/;
const SECTION = /^-{3,} *(.*?) *-{3,}\s*$/;
const ENTRY = /^([A-Za-z][^:]{0,100}):\s+(\S+)\s*$/;
/** A label without its value: the line was cut. */
const CUT_ENTRY = /^[A-Z][A-Za-z0-9 ()>_/-]{0,100}$/;
const MAX_VALUES = 1000;

export function isMetricsSummaryStart(message: string): boolean {
  return message.charCodeAt(0) === 61 /* = */ && START.test(message);
}

function snakeCase(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
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
    const section = SECTION.exec(text);
    if (section !== null) {
      this.section = snakeCase(section[1] as string);
      return CONSUMED;
    }
    const entry = ENTRY.exec(text);
    if (entry !== null) {
      const key = (this.section === '' ? '' : `${this.section}.`) + snakeCase(entry[1] as string);
      const raw = entry[2] as string;
      const n = scanNumber(raw, 0, raw.length);
      if (this.count < MAX_VALUES && isSafeKey(key)) {
        this.count++;
        this.values[detach(key)] = Number.isNaN(n) ? detach(raw) : n;
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
        `"Omni Metrics Summary" block (layout of the unmerged PR #3069) starting at line ${this.startLine} was cut off at line ${this.cutLine}; the ${this.count} values read were kept`,
      );
    }
  }
}
