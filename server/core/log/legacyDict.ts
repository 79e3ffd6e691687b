// The stats formats before the tables of vllm-omni#891 (Feb 2026), real-logs 06, 07, 08, 14:
//   log_utils.py  `{'type': 'request_level_metrics', 'request_id': ..., 'stages': {0: {...}}}`
//                 pprinted over several lines, every line with the log prefix
//   omni.py       `[Summary] {'e2e_requests': 3, ...}`
//   a summary dict printed on one line (vllm-omni#533)
//   log_utils.py  `{"type": "overall_request", ...}`, one JSON object a line, in the files it
//                 appends to instead (`<log file>.orchestrator.stats.jsonl`, `.overall.stats.jsonl`)
// The dict is collected until its brackets balance, then read with the tolerant Python
// literal reader. Cut off, what was read is still emitted, with a problem naming the format.
import type { LegacyDictRecord, LogHeader } from '../records';
import { CONSUMED, FINISHED, REJECTED, type FeedResult, type OpenRecord, type ParseContext } from './openRecord';
import { readPythonLiteral } from './pythonLiteral';

const MAX_DICT_TEXT = 1 << 20;
const SUMMARY_TAG = '[Summary] ';
const JSON_TYPE_TAG = '{"type": "';
/**
 * The record types log_utils.py writes as JSON lines. Only these start a record: another
 * program's JSON line with a "type" is no vLLM-Omni stats record.
 */
const LOG_UTILS_JSON_TYPES: ReadonlySet<string> = new Set([
  'stage_request_stats',
  'stage_running_avg',
  'stage_batch_stats',
  'transfer_stats',
  'transfer_rx_stats',
  'transfer_total_stats',
  'orchestrator_request_e2e',
  'orchestrator_summary',
  'overall_request',
  'overall_summary',
]);

export interface LegacyStart {
  /** Machine name, e.g. `log_utils request_level_metrics`. */
  readonly format: string;
  /** Where the dict text starts in the message. */
  readonly offset: number;
  /** The message continues a dict whose beginning is not in the input (real-logs 08). */
  readonly fragment: boolean;
  /** A JSON line of log_utils.py's stats files rather than a dict printed to the log. */
  readonly json?: boolean;
}

/** How a person would recognise the format, for problem messages. */
export function describeLegacyFormat(format: string, json = false): string {
  if (json) return `log_utils.py ${format.slice(10)} JSON line (pre-Feb-2026 stats file)`;
  if (format === 'omni [Summary]') return 'legacy omni.py [Summary] dict (pre-Feb-2026 format)';
  if (format === 'summary dict') return 'legacy single-line summary dict (Dec-2025 format)';
  if (format.startsWith('log_utils ')) return `legacy log_utils ${format.slice(10)} dict (pre-Feb-2026 format)`;
  return `legacy ${format} dict`;
}

/** Whether a message starts a legacy stats dict; `file` is the log prefix's file, if any. */
export function legacyStartOf(message: string, file: string | null): LegacyStart | null {
  if (message.startsWith(SUMMARY_TAG + '{'))
    return { format: 'omni [Summary]', offset: SUMMARY_TAG.length, fragment: false };
  if (message.startsWith("{'type': '")) {
    const end = message.indexOf("'", 10);
    const type = end === -1 ? 'metrics' : message.slice(10, Math.min(end, 60));
    return { format: `log_utils ${type}`, offset: 0, fragment: false };
  }
  if (message.startsWith(JSON_TYPE_TAG)) {
    const end = message.indexOf('"', JSON_TYPE_TAG.length);
    const type = end === -1 ? '' : message.slice(JSON_TYPE_TAG.length, end);
    return LOG_UTILS_JSON_TYPES.has(type)
      ? { format: `log_utils ${type}`, offset: 0, fragment: false, json: true }
      : null;
  }
  if (message.startsWith("{'e2e_requests'")) return { format: 'summary dict', offset: 0, fragment: false };
  if (file !== null && file.endsWith('log_utils.py') && /^\s+'\w+': /.test(message)) {
    return { format: 'log_utils request_level_metrics', offset: 0, fragment: true };
  }
  return null;
}

/**
 * A request id as printed. log_utils.py writes the orchestrator's own id as it is (an integer in
 * offline runs) in some records and as `str()` of it in others: both name one request.
 */
function requestIdOf(v: number | string | undefined): string | null {
  if (typeof v === 'string') return v;
  return typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : null;
}

export class LegacyDictCollector implements OpenRecord {
  rawPrefix: string | null;
  private readonly parts: string[] = [];
  private length = 0;
  private depth = 0;
  private lastLine: number;

  constructor(
    private readonly ctx: ParseContext,
    readonly key: string,
    readonly processKey: string | null,
    readonly header: LogHeader | null,
    rawPrefix: string | null,
    private readonly start: LegacyStart,
    private readonly startLine: number,
  ) {
    this.rawPrefix = rawPrefix;
    this.lastLine = startLine;
    if (start.fragment) this.add('{', startLine);
  }

  /** Reads the first line's message. FINISHED when the dict fits on it. */
  begin(message: string): FeedResult {
    return this.add(message.slice(this.start.offset), this.startLine);
  }

  feed(src: string, a: number, b: number, lineNo: number): FeedResult {
    // Lines without a log prefix continue a pasted dict only when they look like it.
    if (this.key === '') {
      const c = src.charCodeAt(a);
      if (!(c === 32 /* space */ || c === 39 /* ' */ || c === 34 /* " */ || c === 125 /* } */ || c === 93 /* ] */))
        return REJECTED;
    }
    return this.add(src.slice(a, b), lineNo);
  }

  close(supersededAt: number | null): void {
    this.emit(false, supersededAt);
  }

  private add(text: string, lineNo: number): FeedResult {
    this.lastLine = lineNo;
    this.parts.push(text);
    this.length += text.length + 1;
    let quote = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (quote !== 0) {
        if (c === 92 /* \ */) i++;
        else if (c === quote) quote = 0;
      } else if (c === 39 /* ' */ || c === 34 /* " */) quote = c;
      else if (c === 123 /* { */ || c === 91 /* [ */ || c === 40 /* ( */) this.depth++;
      else if (c === 125 /* } */ || c === 93 /* ] */ || c === 41 /* ) */) {
        this.depth--;
        if (this.depth === 0) {
          this.emit(true, null);
          return FINISHED;
        }
      }
    }
    if (this.length > MAX_DICT_TEXT) {
      this.emit(false, lineNo);
      return FINISHED;
    }
    return CONSUMED;
  }

  private emit(balanced: boolean, supersededAt: number | null): void {
    const read = readPythonLiteral(this.parts.join('\n'), undefined, this.start.json === true);
    this.parts.length = 0;
    const complete = balanced && read.complete && !this.start.fragment;
    const requestId = requestIdOf(read.values['request_id']);
    const record: LegacyDictRecord = {
      kind: 'legacyDict',
      line: this.startLine,
      header: this.header,
      format: this.start.format,
      requestId,
      values: read.values,
      complete,
      ...(this.start.json === true ? { json: true as const } : {}),
    };
    this.ctx.sink.record(record);
    if (complete) return;
    const count = Object.keys(read.values).length;
    const what = describeLegacyFormat(this.start.format, this.start.json === true);
    let why: string;
    if (this.start.fragment) why = `begins before line ${this.startLine} (its first lines are not in the input)`;
    else if (balanced) why = `starting at line ${this.startLine} could not be read past some point`;
    else if (this.length > MAX_DICT_TEXT)
      why = `starting at line ${this.startLine} is longer than ${MAX_DICT_TEXT} characters`;
    else {
      const by = supersededAt === null ? 'the end of the input' : `line ${supersededAt}`;
      why = `starting at line ${this.startLine} was cut off at line ${this.lastLine} (by ${by})`;
    }
    this.ctx.sink.problem(this.startLine, `${what} ${why} (${count} values read)`);
  }
}
