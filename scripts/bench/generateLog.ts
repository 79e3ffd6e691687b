// Writes a deterministic, realistic vLLM-Omni server log for the parse benchmark:
// 2-stage Qwen3-TTS (talker -> code2wav), 3-stage Qwen3-Omni (thinker -> talker ->
// code2wav) and 2-stage AR -> diffusion requests, each logged as the server does
// (Overall Summary, RequestE2EStats, [OmniTiming], DEBUG StageRequestStats,
// TransferEdgeStats), rendered by server/simulate/render.ts: CRLF continuation lines with
// the full prefix, "\n%s" lead-ins. Several server boots: plain and ANSI-coloured, old
// `(APIServer pid=N)` and new `(API)` process prefixes, `stats.py` and DEBUG
// `vllm_omni/metrics/stats.py` paths. Between and inside records: HTTP access lines,
// engine-core lines of other processes, vLLM's periodic engine stats.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import {
  int,
  logPrefix,
  recordTitle,
  renderColumnsTable,
  renderFieldValueTable,
  renderLogRecord,
  renderTableRecord,
  type LogPrefixOptions,
  type PyValue,
} from '../../server/simulate/render';
import { mulberry32 } from '../../server/simulate/seededRandom';

export interface GeneratedLog {
  readonly bytes: number;
  readonly requests: number;
  readonly lines: number;
}

export type Kind = 'tts' | 'omni' | 'image';
type Row = Record<string, PyValue>;

const REQUESTS_PER_BOOT = 5000;
const pad2 = (n: number): string => String(n).padStart(2, '0');

class LogWriter {
  private buffer: string[] = [];
  buffered = 0;
  bytes = 0;
  lines = 0;

  constructor(private readonly fd: number) {}

  write(text: string): void {
    this.buffer.push(text);
    this.buffered += text.length;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.lines++;
    if (this.buffered > 1 << 22) this.flush();
  }

  flush(): void {
    const chunk = Buffer.from(this.buffer.join(''), 'utf8');
    writeSync(this.fd, chunk);
    this.bytes += chunk.length;
    this.buffer = [];
    this.buffered = 0;
  }
}

/** Request kinds the generator draws from, uniformly: the default mix is half Qwen3-TTS, a quarter each Qwen3-Omni and AR -> diffusion. */
export const DEFAULT_KINDS: readonly Kind[] = ['tts', 'tts', 'omni', 'image'];

/** Writes requests until the log reaches targetBytes (or maxRequests requests). */
export function generateBenchLog(
  path: string,
  targetBytes: number,
  seed = 20260821,
  kinds: readonly Kind[] = DEFAULT_KINDS,
  maxRequests = Infinity,
): GeneratedLog {
  const rnd = mulberry32(seed);
  const ms = (lo: number, hi: number): number => lo + rnd() * (hi - lo);
  const count = (lo: number, hi: number): number => Math.floor(lo + rnd() * (hi - lo + 1));
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
  const fd = openSync(path, 'w');
  const out = new LogWriter(fd);
  let requests = 0;
  let clock = 0; // seconds since 08-21 00:00:00

  const timestamp = (): string => {
    const s = clock % 86400;
    return `08-${pad2(21 + Math.floor(clock / 86400))} ${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
  };

  let boot = 0;
  let process = 'APIServer pid=4242';
  let ansi = false;
  let debugPath = 'stats.py';
  const prefix = (
    level: LogPrefixOptions['level'],
    file: string,
    fileLine: number,
    proc: string | null = process,
  ): string => logPrefix({ process: proc, level, timestamp: timestamp(), file, fileLine, ansi });

  const startBoot = (): void => {
    boot++;
    ansi = boot % 2 === 0;
    process = boot % 3 === 0 ? 'API' : `APIServer pid=${4000 + boot}`;
    debugPath = boot % 2 === 0 ? 'vllm_omni/metrics/stats.py' : 'stats.py';
    out.write(renderLogRecord(prefix('INFO', 'api_server.py', 1888), ['vLLM API server version 0.11.0']));
    out.write(
      renderLogRecord(prefix('INFO', 'omni.py', 463, null), ['[Orchestrator] All stages initialized successfully']),
    );
  };

  const unrelated = (): void => {
    const r = rnd();
    if (r < 0.5)
      out.write(`(${process}) INFO:     127.0.0.1:${count(30000, 60000)} - "POST /v1/audio/speech HTTP/1.1" 200 OK\n`);
    else if (r < 0.8)
      out.write(
        renderLogRecord(prefix('INFO', 'core.py', 227, `EngineCore_DP0 pid=${5000 + boot}`), [
          'Scheduler step took 3.2 ms',
        ]),
      );
    else
      out.write(
        renderLogRecord(prefix('INFO', 'loggers.py', 127), [
          `Engine 000: Avg prompt throughput: ${ms(0, 3000).toFixed(1)} tokens/s, Avg generation throughput: ${ms(0, 50).toFixed(1)} tokens/s, Running: ${count(0, 16)} reqs, Waiting: ${count(0, 8)} reqs, GPU KV cache usage: ${ms(0, 90).toFixed(1)}%, Prefix cache hit rate: ${ms(0, 50).toFixed(1)}%`,
        ]),
      );
  };

  /** A table record, sometimes with another process's line written into the middle of it. */
  const table = (p: string, lines: readonly string[]): void => {
    const text = renderTableRecord(p, lines);
    if (rnd() < 0.04) {
      const cut = text.indexOf('\n', text.length >> 1) + 1;
      out.write(text.slice(0, cut));
      out.write(
        renderLogRecord(prefix('INFO', 'core.py', 227, `EngineCore_DP0 pid=${5000 + boot}`), ['Preempted 0 requests']),
      );
      out.write(text.slice(cut));
    } else out.write(text);
  };

  const list = (n: number, mean: number): number[] => new Array<number>(n).fill(mean);

  const llmStage = (
    batchId: number,
    tokensIn: number,
    tokensOut: number,
    first: number,
    gen: number,
    downstream: boolean,
  ): Row => {
    const tpot = ms(10, 40);
    return {
      batch_id: int(batchId),
      batch_size: int(1),
      num_tokens_in: int(tokensIn),
      num_tokens_out: int(tokensOut),
      output_unit_count: int(tokensOut),
      output_unit_type: 'text',
      postprocess_time_ms: ms(0, 1),
      replica_id: int(0),
      serving_time_to_first_output_ms: first,
      stage_gen_time_ms: gen,
      time_per_output_unit_ms: tpot,
      inter_output_latency_ms: tpot,
      inter_output_latencies_ms: list(Math.max(1, tokensOut - 1), tpot),
      vllm_ttft_ms: ms(20, 80),
      vllm_tpot_ms: tpot,
      vllm_itl_ms: tpot,
      vllm_itls_ms: list(Math.max(1, tokensOut - 1), tpot),
      vllm_queued_ms: ms(0, 5),
      vllm_input_wait_ms: downstream ? ms(0, 200) : null,
      vllm_ready_queued_ms: downstream ? ms(0, 2) : null,
      vllm_prefill_ms: ms(10, 60),
      vllm_decode_ms: gen * 0.9,
      vllm_num_preemptions: int(rnd() < 0.05 ? 1 : 0),
    };
  };

  const codecStage = (batchId: number, first: number, gen: number): Row => {
    const chunks = count(3, 12);
    const frames = chunks * 24000 * 0.8;
    return {
      audio_duration_s: frames / 24000,
      audio_generated_frames: int(frames),
      audio_sample_rate: int(24000),
      batch_id: int(batchId),
      batch_size: int(1),
      inter_output_latencies_ms: list(chunks - 1, ms(100, 300)),
      inter_output_latency_ms: ms(100, 300),
      num_tokens_in: int(0),
      num_tokens_out: int(0),
      output_unit_count: int(chunks),
      output_unit_type: 'audio',
      postprocess_time_ms: 0,
      serving_time_to_first_output_ms: first,
      stage_gen_time_ms: gen,
      time_per_output_unit_ms: ms(100, 300),
      vllm_decode_ms: rnd() < 0.5 ? gen * 0.8 : null,
      vllm_itls_ms: [],
      vllm_prefill_ms: rnd() < 0.5 ? ms(5, 30) : null,
      vllm_queued_ms: ms(0, 300),
      vllm_input_wait_ms: ms(0, 290),
      vllm_ready_queued_ms: ms(0, 10),
      vllm_ttft_ms: rnd() < 0.5 ? ms(10, 40) : 0,
    };
  };

  const diffusionStage = (batchId: number, first: number, gen: number): Row => ({
    batch_id: int(batchId),
    batch_size: int(1),
    denoise_step_latency_ms: gen / 50,
    diffusion_engine_exec_time_s: gen / 1000,
    image_pixels: int(1048576),
    image_time_to_first_output_ms: gen,
    inter_output_latencies_ms: [],
    num_inference_steps: int(50),
    output_ready_wait_time_s: ms(0, 0.01),
    output_unit_count: int(1),
    output_unit_type: 'image',
    postprocess_time_s: ms(0.05, 0.2),
    preprocess_time_s: ms(0, 0.05),
    scheduler_queue_wait_s: 0,
    serving_time_to_first_output_ms: first,
    stage_gen_time_ms: gen,
    vllm_decode_ms: null,
    vllm_itls_ms: [],
    vllm_prefill_ms: null,
    vllm_queued_ms: null,
  });

  const request = (kind: Kind): void => {
    requests++;
    clock += rnd() < 0.7 ? 1 : 0;
    const rid = kind === 'tts' ? `speech-${hex(16)}` : `chatcmpl-${hex(16)}`;
    const identity = { request_id: rid };
    const stageRows: Row[] = [];
    const stageSeconds: number[] = [];
    const transfers: Array<{ header: string; values: Row }> = [];
    let first = ms(50, 200);
    const nStages = kind === 'omni' ? 3 : 2;
    for (let s = 0; s < nStages; s++) {
      const gen = ms(200, 3000);
      stageSeconds.push(gen / 1000);
      const last = s === nStages - 1;
      if (kind === 'image' && last) stageRows.push(diffusionStage(count(0, 500), first + gen, gen));
      else if (kind !== 'image' && last) stageRows.push(codecStage(count(0, 500), first, gen));
      else stageRows.push(llmStage(count(0, 500), s === 0 ? count(20, 5000) : 0, count(20, 400), first, gen, s > 0));
      first += ms(20, 200);
      if (!last && (kind !== 'tts' || rnd() < 0.3)) {
        transfers.push({
          header: `${s}->${s + 1}`,
          values: {
            in_flight_time_ms: ms(0, 5),
            rx_decode_time_ms: ms(0, 100),
            size_kbytes: ms(10, 100000),
            tx_time_ms: ms(0, 80),
          },
        });
      }
    }
    const e2e = stageSeconds.reduce((a, b) => a + b, 0) * 1000 + ms(5, 50);
    const tokens = count(50, 6000);
    const statsLine = 600 + count(0, 2);
    const info = prefix('INFO', 'stats.py', statsLine);
    table(
      info,
      renderFieldValueTable('Overall Summary', [
        ['e2e_requests', int(1)],
        ['e2e_wall_time_ms', e2e],
        ['e2e_total_tokens', int(tokens)],
        ['e2e_avg_time_per_request_ms', e2e],
        ['e2e_avg_tokens_per_s', (tokens * 1000) / e2e],
        ['input_preprocess_time_ms', ms(1, 20)],
        ...stageSeconds.map((s, i): [string, PyValue] => [`e2e_stage_${i}_wall_time_ms`, s * 1000]),
      ]),
    );
    const e2eLine = prefix('INFO', 'stats.py', 640);
    table(
      e2eLine,
      renderFieldValueTable(recordTitle('RequestE2EStats', identity), [
        ['e2e_total_ms', e2e],
        ['e2e_total_tokens', int(tokens)],
        ['transfers_total_kbytes', transfers.length === 0 ? 0 : ms(10, 100000)],
        ['transfers_total_time_ms', transfers.length === 0 ? 0 : ms(0, 200)],
      ]),
    );
    const stagesText = stageSeconds.map((s, i) => `${i}:${s.toFixed(2)}s`).join(',');
    const transfersText =
      transfers.length === 0
        ? ''
        : ` transfers=[${transfers.map((t) => `${t.header}=${ms(0, 80).toFixed(2)}ms`).join(',')}]`;
    out.write(
      renderLogRecord(prefix('INFO', 'stats.py', 655), [
        `[OmniTiming] req=${rid} total=${(e2e / 1000).toFixed(2)}s preprocess=0.01s engine=${(e2e / 1000 - 0.01).toFixed(2)}s stages=[${stagesText}]${transfersText}`,
      ]),
    );
    if (rnd() < 0.1) unrelated();
    table(
      prefix('DEBUG', debugPath, 672),
      renderColumnsTable(
        recordTitle('StageRequestStats', identity),
        stageRows.map((values, i) => ({ header: String(i), values })),
      ),
    );
    if (transfers.length > 0)
      table(prefix('INFO', 'stats.py', 690), renderColumnsTable(recordTitle('TransferEdgeStats', identity), transfers));
  };

  while (out.bytes < targetBytes && requests < maxRequests) {
    if (requests % REQUESTS_PER_BOOT === 0) startBoot();
    request(kinds[count(0, kinds.length - 1)]);
    if (rnd() < 0.3) unrelated();
    if (out.buffered > 1 << 22) out.flush();
    else if (out.bytes + out.buffered >= targetBytes) out.flush();
  }
  out.flush();
  closeSync(fd);
  return { bytes: out.bytes, requests, lines: out.lines };
}

/**
 * Runs generateBenchLog in a child process (this file's entry point below) and returns what
 * it wrote. Benchmarks measure in a process that has not run the generator: its 200 MB of
 * short-lived strings leave the heap in a state no product process is in, and V8 then at
 * times decides, at the first collection of a parse, to allocate the parser's objects in
 * the old generation (allocation-site pretenuring), making that whole process ~15% slower.
 */
export function generateBenchLogApart(
  path: string,
  targetBytes: number,
  options: { seed?: number; kinds?: readonly Kind[]; maxRequests?: number } = {},
): GeneratedLog {
  const { seed, kinds, maxRequests } = options;
  const args = [
    ...nodeOptionsWithoutScript(process.execArgv),
    __filename,
    path,
    String(targetBytes),
    String(seed ?? ''),
    (kinds ?? DEFAULT_KINDS).join(','),
    String(maxRequests ?? ''),
  ];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0)
    throw new Error(`generating the bench log failed (${child.status ?? child.signal}): ${child.stderr}`);
  // The last line: V8 flags passed on (--trace-*) may print before it.
  const lines = child.stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '') as GeneratedLog;
}

/**
 * The parent's Node options without a script of its own: a bench started as `node -e '...'`
 * has `-e <code>` in its execArgv, and passing that on would make every child run the
 * parent's script again (and generate, and spawn, without end).
 */
export function nodeOptionsWithoutScript(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i];
    if (option === '-e' || option === '--eval' || option === '-p' || option === '--print') {
      i++;
      continue;
    }
    if (/^--(eval|print)=/.test(option)) continue;
    kept.push(option);
  }
  return kept;
}

if (require.main === module) {
  const [path, bytes, seed, kinds, maxRequests] = process.argv.slice(2);
  if (path === undefined || bytes === undefined) {
    process.stderr.write('usage: generateLog.ts <path> <bytes> [seed] [kinds, e.g. tts,omni,image] [max requests]\n');
    process.exit(2);
  }
  const kindList = kinds === undefined || kinds === '' ? undefined : (kinds.split(',') as Kind[]);
  const max = maxRequests === undefined || maxRequests === '' ? undefined : Number(maxRequests);
  const generated = generateBenchLog(
    path,
    Number(bytes),
    seed === undefined || seed === '' ? undefined : Number(seed),
    kindList,
    max,
  );
  process.stdout.write(`\n${JSON.stringify(generated)}\n`);
}
