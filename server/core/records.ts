// Records the log parser yields, one per complete log record (a table, an
// [OmniTiming] line, a periodic engine line, a boot marker, the deploy config loaded). Pure data, no behaviour.
import type { BootMarkerName } from './log/bootMarkers';
import type { CompressedFormat } from './log/compressedInput';
import type { FieldMap } from './values';

/** Where a record starts in the input: 1-based physical line number. */
export interface SourceLine {
  readonly line: number;
}

/** The vLLM log prefix of a record, when it had one. */
export interface LogHeader {
  /** DEBUG | INFO | WARNING | ERROR | CRITICAL */
  readonly level: string;
  /** `MM-DD HH:MM:SS` as printed (vLLM prints no year and no milliseconds). */
  readonly timestamp: string;
  /** `stats.py` or `vllm_omni/metrics/stats.py` ... */
  readonly file: string;
  readonly fileLine: number;
  /**
   * `APIServer pid=4242`, `API`, `API (0)`, ... without the parentheses; null when absent. In a log
   * that merges several servers' (kubectl --prefix, docker compose, stern), the line's tag first:
   * `pod/vllm-0/vllm: APIServer pid=1` (the tag alone for a line without a process prefix).
   */
  readonly process: string | null;
  /** N of a `[Stage-N]` prefix; null when absent. */
  readonly stagePrefix: number | null;
  /**
   * In a log that merges several servers', the tag of the server the line came from
   * (`pod/vllm-0/vllm`, server/core/log/sourceTag.ts): a server's start ends its calls and makes its
   * own first request cold. Absent in a log of one server.
   */
  readonly source?: string;
}

interface RecordBase extends SourceLine {
  /** null for lines pasted without a log prefix (e.g. markdown transcriptions). */
  readonly header: LogHeader | null;
}

/** One column of a [StageRequestStats] table. */
export interface StageColumn {
  /** Header text as printed: `0`, `1`, `1_2` (second segment of stage 1). */
  readonly column: string;
  /** Integer stage id, or null if the header is not `N` or `N_k`. */
  readonly stageId: number | null;
  /** 1 for `N`, k for `N_k`. */
  readonly segment: number;
  /** `thinker` of a `0:thinker` header (vllm-omni#3069's branch): the stage's name as printed; absent for other headers. */
  readonly label?: string;
  readonly fields: FieldMap;
}

/** The bracketed identity of a per-request title: request_id, and for duplex response/turn/reason. */
export type RecordIdentity = Readonly<Record<string, string>>;

export interface StageTableRecord extends RecordBase {
  readonly kind: 'stageTable';
  readonly requestId: string;
  readonly identity: RecordIdentity;
  readonly columns: readonly StageColumn[];
  /** Row names in printed order. */
  readonly rows: readonly string[];
  /** false when the table was cut off (end of input, or another record began first), or a line of it was lost. */
  readonly complete: boolean;
  /**
   * Present when a line inside the table was lost (cut short or unreadable): every range of row
   * names the table did not read, the end's included when it was also cut off. Absent on a table
   * that is incomplete only because it was cut off: its rows after the last one read are unread.
   */
  readonly unreadRows?: readonly UnreadRows[];
}

/**
 * The rows of a table a lost line may have held: the table sorts its rows by name, so they are
 * the names after `after` ('' : from the first) and before `before` (null: to the end).
 */
export interface UnreadRows {
  readonly after: string;
  readonly before: string | null;
}

export interface TransferEdge {
  /** `0->1` as printed. */
  readonly edge: string;
  readonly fromStage: number | null;
  readonly toStage: number | null;
  readonly fields: FieldMap;
}

export interface TransferTableRecord extends RecordBase {
  readonly kind: 'transferTable';
  readonly requestId: string;
  readonly identity: RecordIdentity;
  readonly edges: readonly TransferEdge[];
  readonly complete: boolean;
}

export interface RequestE2ERecord extends RecordBase {
  readonly kind: 'requestE2E';
  readonly requestId: string;
  readonly identity: RecordIdentity;
  readonly fields: FieldMap;
  readonly complete: boolean;
}

export interface OverallSummaryRecord extends RecordBase {
  readonly kind: 'overallSummary';
  readonly fields: FieldMap;
  readonly complete: boolean;
}

export interface OmniTimingStage {
  readonly stageId: number;
  /** `thinker` in `0:thinker=0.22s` (unmerged vllm-omni#3042 branch); null for `0:0.22s`. */
  readonly label: string | null;
  readonly seconds: number;
}

export interface OmniTimingTransfer {
  readonly fromStage: number;
  readonly toStage: number;
  readonly ms: number;
}

export interface OmniTimingRecord extends RecordBase {
  readonly kind: 'omniTiming';
  readonly requestId: string;
  readonly identity: RecordIdentity;
  readonly totalS: number | null;
  readonly preprocessS: number | null;
  readonly engineS: number | null;
  readonly stages: readonly OmniTimingStage[];
  readonly transfers: readonly OmniTimingTransfer[];
  readonly ar2diffusionMs: number | null;
  /** Any other key=value parts, verbatim. */
  readonly extra: Readonly<Record<string, string>>;
}

/** vLLM's periodic `Engine 000: Avg prompt throughput ...` line. */
export interface EngineStatsRecord extends RecordBase {
  readonly kind: 'engineStats';
  readonly engine: string;
  /** Keys as snake_case: avg_prompt_throughput, avg_generation_throughput, running, waiting,
   *  gpu_kv_cache_usage, prefix_cache_hit_rate, preemptions, deferred (those present). */
  readonly values: Readonly<Record<string, number>>;
}

/** A line that marks a server (re)start inside one log. */
export interface BootMarkerRecord extends RecordBase {
  readonly kind: 'bootMarker';
  /** Which marker matched, e.g. `api-server-version`. */
  readonly marker: BootMarkerName;
  readonly text: string;
}

/** The deploy config the server says it loaded at start-up (`Loaded deploy config from …`, or `'deploy_config'` in its non-default args). */
export interface DeployConfigRecord extends RecordBase {
  readonly kind: 'deployConfig';
  /** As the log prints it: a path on the machine that wrote the log, perhaps relative to its working directory. */
  readonly path: string;
  readonly from: 'loaded' | 'args';
}

/** The model the server says it serves at start-up (`'model'` in vLLM's non-default args): names its pipeline (stageRoles.ts). */
export interface ServedModelRecord extends RecordBase {
  readonly kind: 'servedModel';
  /** As the log prints it: a Hugging Face id (`Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice`) or a local path. */
  readonly model: string;
}

/** Pre-Feb-2026 `log_utils.py` pprint dicts and the `[Summary] {...}` dict. */
export interface LegacyDictRecord extends RecordBase {
  readonly kind: 'legacyDict';
  /** `log_utils request_level_metrics` | `omni [Summary]` | `summary dict` */
  readonly format: string;
  readonly requestId: string | null;
  /** Scalar values found (numbers and strings), flattened with dotted keys (`stages.0.num_tokens_out`). */
  readonly values: Readonly<Record<string, number | string>>;
  readonly complete: boolean;
  /** A JSON line of the stats files log_utils.py writes (`<log file>.overall.stats.jsonl`), not a dict printed to the log. */
  readonly json?: true;
}

export type LogRecord =
  | StageTableRecord
  | TransferTableRecord
  | RequestE2ERecord
  | OverallSummaryRecord
  | OmniTimingRecord
  | EngineStatsRecord
  | BootMarkerRecord
  | DeployConfigRecord
  | ServedModelRecord
  | LegacyDictRecord;

/** Something in the input that could not be read as intended; never thrown. */
export interface ParseProblem {
  readonly line: number;
  readonly message: string;
  /** The input starts with a compressed format's magic number (compressedInput.ts). */
  readonly compressed?: CompressedFormat;
  /** The input's first bytes are binary data, not text (binaryInput.ts). */
  readonly binary?: true;
  /** The whole input was this many NUL bytes (a zero-filled file, nothing written to it). */
  readonly zeroFilledBytes?: number;
  /** The input is a deploy config's YAML, not a log (deployConfigInput.ts). */
  readonly deployConfig?: true;
  /**
   * The gzip data broke off after `logBytes` of log (gzipInput.ts): what came before was read, the
   * rest was not. `input` 'scrape': the data was of a /metrics scrape (an imported one), its series read.
   */
  readonly gzipDamaged?: { readonly logBytes: number; readonly input?: 'scrape' };
}

export interface ParseOutput {
  readonly records: LogRecord[];
  readonly problems: ParseProblem[];
  /**
   * The input so far has a line logged at DEBUG (vLLM's prefix or Python's default format): the
   * server logs at DEBUG, so stats tables it did not print are not for want of the level.
   */
  readonly debugLines?: boolean;
  /**
   * The log time (`MM-DD HH:MM:SS`) of the input's first line with a log prefix, whatever the line
   * says: what a time window is placed by in a log with no timed request. Absent until one is read.
   */
  readonly firstLogTime?: string;
}
