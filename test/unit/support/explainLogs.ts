// Helpers for the explain tests (not a test file itself): requests written as the server
// prints them (server/simulate/render.ts: PrettyTable, vLLM's prefix, CRLF continuation),
// read back through the real parser and analysis into an ExplainIndex.
import { LogStreamParser } from '../../../server/core/log';
import { StreamAnalysis } from '../../../server/core/analysis/streamAnalysis';
import type { AnalyzedRequest } from '../../../server/core/analysis/types';
import { ExplainIndex } from '../../../server/core/explain/explainIndex';
import {
  int,
  logPrefix,
  recordTitle,
  renderColumnsTable,
  renderFieldValueTable,
  renderLogRecord,
  renderTableRecord,
  type PyValue,
} from '../../../server/simulate/render';

export { int };

export interface RequestSpec {
  readonly id: string;
  /** `MM-DD HH:MM:SS` of the request's records (its finish). */
  readonly time?: string;
  /** e2e_total_ms of RequestE2EStats (omitted: no such table). */
  readonly e2eMs?: number;
  /** [OmniTiming] preprocess= in seconds (omitted: no preprocess part). */
  readonly preprocessS?: number;
  /** Column header -> that stage's fields; values as Python holds them (int(...) for ints). */
  readonly stages: Readonly<Record<string, Readonly<Record<string, PyValue>>>>;
  /** Edge `0->1` -> TransferEdgeStats fields. */
  readonly transfers?: Readonly<Record<string, Readonly<Record<string, PyValue>>>>;
  /** INFO level: only the [OmniTiming] line (no tables). */
  readonly infoOnly?: boolean;
}

const prefix = (level: 'DEBUG' | 'INFO', time: string, line: number): string =>
  logPrefix({
    process: 'APIServer pid=4242',
    level,
    timestamp: time,
    file: 'vllm_omni/metrics/stats.py',
    fileLine: line,
    ansi: false,
  });

const seconds = (ms: number): string => (ms / 1000).toFixed(2);

export function renderRequest(spec: RequestSpec): string {
  const time = spec.time ?? '10-22 09:30:53';
  const identity = { request_id: spec.id };
  let out = '';
  if (spec.e2eMs !== undefined && spec.infoOnly !== true) {
    out += renderTableRecord(
      prefix('DEBUG', time, 987),
      renderFieldValueTable(recordTitle('RequestE2EStats', identity), [['e2e_total_ms', spec.e2eMs]]),
    );
  }
  const stageTimes = Object.entries(spec.stages)
    .filter(([header]) => !header.includes('_'))
    .map(
      ([header, f]) => `${header}:${seconds(typeof f['stage_gen_time_ms'] === 'number' ? f['stage_gen_time_ms'] : 0)}s`,
    );
  // Upstream prints an edge for every downstream stage, with its tx time, zeros included.
  const ids = Object.keys(spec.stages)
    .filter((h) => !h.includes('_'))
    .map(Number)
    .sort((a, b) => a - b);
  const transfers = ids.slice(1).map((to) => {
    const f = spec.transfers?.[`${to - 1}->${to}`];
    return `${to - 1}->${to}=${(typeof f?.['tx_time_ms'] === 'number' ? f['tx_time_ms'] : 0).toFixed(2)}ms`;
  });
  const parts = [`req=${spec.id}`];
  if (spec.e2eMs !== undefined) parts.push(`total=${seconds(spec.e2eMs)}s`);
  if (spec.preprocessS !== undefined) parts.push(`preprocess=${spec.preprocessS.toFixed(2)}s`);
  if (spec.e2eMs !== undefined) parts.push(`engine=${seconds(spec.e2eMs - (spec.preprocessS ?? 0) * 1000)}s`);
  parts.push(`stages=[${stageTimes.join(',')}]`);
  if (transfers.length > 0) parts.push(`transfers=[${transfers.join(',')}]`);
  out += renderLogRecord(prefix('INFO', time, 910), [`[OmniTiming] ${parts.join(' ')}`]);
  if (spec.infoOnly === true) return out;
  out += renderTableRecord(
    prefix('DEBUG', time, 1044),
    renderColumnsTable(
      recordTitle('StageRequestStats', identity),
      Object.entries(spec.stages).map(([header, values]) => ({ header, values })),
    ),
  );
  if (spec.transfers !== undefined) {
    out += renderTableRecord(
      prefix('DEBUG', time, 1084),
      renderColumnsTable(
        recordTitle('TransferEdgeStats', identity),
        Object.entries(spec.transfers).map(([header, values]) => ({ header, values })),
      ),
    );
  }
  return out;
}

export const BOOT_LINE = (time: string): string =>
  renderLogRecord(
    logPrefix({
      process: 'APIServer pid=4242',
      level: 'INFO',
      timestamp: time,
      file: 'api_server.py',
      fileLine: 1888,
      ansi: false,
    }),
    ['vLLM API server version 0.11.0'],
  );

export interface Analysed {
  readonly requests: AnalyzedRequest[];
  readonly index: ExplainIndex;
  readonly analysis: StreamAnalysis;
}

/** Reads log text through the parser and the analysis into an explain index (`live`: a session's, with kept tail state). */
export function analyse(text: string, options: { readonly live?: boolean } = {}): Analysed {
  const index = new ExplainIndex({ year: 2026, live: options.live === true });
  const requests: AnalyzedRequest[] = [];
  const analysis = new StreamAnalysis({
    year: 2026,
    onRequest: (r) => {
      requests.push(r);
      index.add(r);
    },
  });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(text));
  analysis.ingest(parser.end());
  analysis.flush();
  return { requests, index, analysis };
}

export function analyseSpecs(specs: readonly RequestSpec[]): Analysed {
  return analyse(specs.map(renderRequest).join(''));
}

/**
 * Full payload, stage 1 after stage 0. Preprocess 20 ms; stage 0 anchored at 130 − 95 − 5 = 30,
 * ends at 30 + 420 = 450; hand-off 10 + 8 + 2 + 5 = 25 ms; stage 1 anchored at 535 − 50 − 5 =
 * 480, ends at 950; e2e 1,000 → final output 50 ms.
 */
export const SEQUENTIAL: RequestSpec = {
  id: 'chatcmpl-seq',
  e2eMs: 1000,
  preprocessS: 0.02,
  stages: {
    '0': {
      num_tokens_in: int(100),
      num_tokens_out: int(40),
      postprocess_time_ms: 10,
      serving_time_to_first_output_ms: 130,
      stage_gen_time_ms: 420,
      vllm_queued_ms: 5,
      vllm_prefill_ms: 95,
      vllm_decode_ms: 300,
      vllm_ttft_ms: 100,
    },
    '1': {
      num_tokens_in: int(0),
      num_tokens_out: int(200),
      postprocess_time_ms: 0,
      serving_time_to_first_output_ms: 535,
      stage_gen_time_ms: 470,
      vllm_queued_ms: 5,
      vllm_input_wait_ms: 2,
      vllm_ready_queued_ms: 3,
      vllm_prefill_ms: 50,
      vllm_decode_ms: 400,
      vllm_ttft_ms: 55,
    },
  },
  transfers: { '0->1': { tx_time_ms: 8, in_flight_time_ms: 2, rx_decode_time_ms: 5, size_kbytes: 10 } },
};

/**
 * Async chunk: the codec (stage 1) is submitted with the talker and waits 150 ms for its
 * first chunk. Talker [10, 620], codec [12, 797] → 608 ms overlap; final output 3 ms.
 */
export function asyncChunk(id: string, extraPrefillMs = 0, time?: string): RequestSpec {
  const x = extraPrefillMs;
  return {
    id,
    ...(time === undefined ? {} : { time }),
    e2eMs: 800 + x,
    preprocessS: 0.01,
    stages: {
      '0': {
        num_tokens_in: int(64),
        num_tokens_out: int(50),
        serving_time_to_first_output_ms: 112 + x,
        stage_gen_time_ms: 610 + x,
        vllm_queued_ms: 2,
        vllm_prefill_ms: 100 + x,
        vllm_decode_ms: 500,
        vllm_ttft_ms: 102 + x,
      },
      '1': {
        num_tokens_in: int(0),
        num_tokens_out: int(30),
        serving_time_to_first_output_ms: 183 + x,
        stage_gen_time_ms: 785 + x,
        vllm_queued_ms: 151 + x,
        vllm_input_wait_ms: 150 + x,
        vllm_ready_queued_ms: 1,
        vllm_prefill_ms: 20,
        vllm_decode_ms: 600,
        vllm_ttft_ms: 171 + x,
      },
    },
  };
}

/**
 * Request `i` of a log of async-chunk requests one a second from 10-22 09:00:10, as a tailed
 * log grows: `speech-NN` with its talker prefill `extraPrefillMs` longer.
 */
export function secondlyRequest(i: number, extraPrefillMs: number): string {
  const s = 10 + i;
  const time = `10-22 09:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  return renderRequest(asyncChunk(`speech-${String(i).padStart(2, '0')}`, extraPrefillMs, time));
}

/**
 * 25 async-chunk requests whose p90 tail of end-to-end time arrived at a slightly higher load:
 * 0.33 others in flight on average against 0.28 for all (7 of 25 found one other in flight),
 * which read 0.3 and 0.3 to one decimal. Times are `10-22 09:MM:SS` of the finish (printed to
 * the second; the finish is read at its middle). The tail is three slow requests, 5,000, 4,900
 * and 4,800 ms, finishing at 20, 40 and 60 s; the 800 ms requests finishing at 17, 18, 19, 37,
 * 39 and 59 s arrive while one of them runs, and the 4,800 ms one arrives while a 2,500 ms one
 * (finishing at 57 s) runs. Fifteen more 800 ms requests, 3 s apart from 62 s, find none.
 */
export function slightlyBusierTailLog(): string {
  const at = (s: number): string =>
    `10-22 09:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  const specs: { s: number; spec: RequestSpec }[] = [
    { s: 20, spec: asyncChunk('slow-5000', 4200, at(20)) },
    { s: 40, spec: asyncChunk('slow-4900', 4100, at(40)) },
    { s: 60, spec: asyncChunk('slow-4800', 4000, at(60)) },
    { s: 57, spec: asyncChunk('medium-2500', 1700, at(57)) },
    ...[17, 18, 19, 37, 39, 59, ...Array.from({ length: 15 }, (_, k) => 62 + 3 * k)].map((s) => ({
      s,
      spec: asyncChunk(`fast-${s}`, 0, at(s)),
    })),
  ];
  return specs
    .sort((a, b) => a.s - b.s)
    .map((r) => renderRequest(r.spec))
    .join('');
}
