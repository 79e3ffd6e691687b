// A small, strict reader of the simulator's log output for its tests: it is not the
// product's parser (server/core/log), only enough to read back what the simulator
// wrote and to notice anything malformed (a table cut off, a row of the wrong width).
// Also holds the relation checks of docs/formats.md#stage-fields applied to printed tables.

export type TableCell =
  | { readonly kind: 'num'; readonly value: number; readonly n?: number }
  | { readonly kind: 'none' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'text'; readonly value: string };

export interface LogTable {
  readonly title: string;
  readonly kind: 'overall' | 'e2e' | 'stage' | 'transfer';
  readonly requestId: string | null;
  readonly level: string;
  readonly headers: string[];
  /** Field name -> one cell per value column. */
  readonly rows: Map<string, TableCell[]>;
  complete: boolean;
}

export interface ReadLog {
  readonly tables: LogTable[];
  readonly omniTiming: string[];
  readonly engineLines: string[];
  /** Messages of every prefixed line, in order. */
  readonly messages: { level: string; file: string; message: string }[];
  readonly problems: string[];
}

const ANSI = /\x1b\[[0-9;]*m/g;
const PREFIX =
  /^(?:\((?:[^()]|\([^()]*\))*\) )?(DEBUG|INFO|WARNING|ERROR|CRITICAL) (\d\d-\d\d \d\d:\d\d:\d\d) \[([^\]]+):(\d+)\] (.*)$/;

export function readCell(text: string): TableCell {
  if (text === '') return { kind: 'empty' };
  if (text === 'None') return { kind: 'none' };
  const m = /^(-?[\d,]+\.?\d*)(?: \(n=(\d+)\))?$/.exec(text);
  if (m !== null) {
    const value = Number(m[1]!.replace(/,/g, ''));
    return m[2] === undefined ? { kind: 'num', value } : { kind: 'num', value, n: Number(m[2]) };
  }
  return { kind: 'text', value: text };
}

function splitRow(msg: string): string[] | null {
  if (!msg.startsWith('|') || !msg.endsWith('|')) return null;
  return msg
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim());
}

export function readLog(raw: string): ReadLog {
  const tables: LogTable[] = [];
  const omniTiming: string[] = [];
  const engineLines: string[] = [];
  const messages: ReadLog['messages'] = [];
  const problems: string[] = [];
  let current: LogTable | null = null;
  let borders = 0;
  const lines = raw.replace(ANSI, '').split('\n');
  lines.forEach((line0, i) => {
    const line = line0.replace(/\r$/, '');
    if (line.includes('\r')) problems.push(`line ${i + 1}: stray CR`);
    const m = PREFIX.exec(line);
    if (m === null) {
      if (current !== null && !current.complete)
        problems.push(`line ${i + 1}: unprefixed line inside table ${current.title}`);
      return;
    }
    const [, level, , file, , message] = m as unknown as [string, string, string, string, string, string];
    messages.push({ level, file, message });
    if (current !== null && !current.complete) {
      if (/^\+[-+]+\+$/.test(message)) {
        borders++;
        if (borders === 3) current.complete = true;
        return;
      }
      const cells = splitRow(message);
      if (cells === null) {
        problems.push(`line ${i + 1}: table ${current.title} cut off`);
        current = null;
      } else if (current.headers.length === 0) {
        current.headers.push(...cells.slice(1));
        return;
      } else {
        if (cells.length !== current.headers.length + 1) problems.push(`line ${i + 1}: row width`);
        current.rows.set(cells[0]!, cells.slice(1).map(readCell));
        return;
      }
    }
    const title =
      /^\[(Overall Summary|(RequestE2EStats|StageRequestStats|TransferEdgeStats) \[request_id=([^\]]+)\])\]$/.exec(
        message,
      );
    if (title !== null) {
      const name = title[2] ?? 'Overall Summary';
      const kind =
        name === 'Overall Summary'
          ? 'overall'
          : name === 'RequestE2EStats'
            ? 'e2e'
            : name === 'StageRequestStats'
              ? 'stage'
              : 'transfer';
      current = {
        title: title[1]!,
        kind,
        requestId: title[3] ?? null,
        level,
        headers: [],
        rows: new Map(),
        complete: false,
      };
      borders = 0;
      tables.push(current);
      return;
    }
    if (message.startsWith('[OmniTiming] ')) omniTiming.push(message);
    if (/^Engine \d{3}: /.test(message)) engineLines.push(message);
  });
  for (const t of tables) if (!t.complete) problems.push(`table ${t.title} incomplete`);
  return { tables, omniTiming, engineLines, messages, problems };
}

/** A stage column's value: a number, null for `None`, undefined when the row is absent (0 or not measured). */
export function field(t: LogTable, column: string, name: string): number | null | undefined {
  const col = t.headers.indexOf(column);
  const row = t.rows.get(name);
  if (col < 0 || row === undefined) return undefined;
  const c = row[col]!;
  return c.kind === 'num' ? c.value : c.kind === 'none' ? null : undefined;
}

export function sampleCount(t: LogTable, column: string, name: string): number {
  const col = t.headers.indexOf(column);
  const c = t.rows.get(name)?.[col];
  return c !== undefined && c.kind === 'num' ? (c.n ?? 0) : 0;
}

export function e2eMs(log: ReadLog, requestId: string): number {
  const t = log.tables.find((x) => x.kind === 'e2e' && x.requestId === requestId);
  return t?.rows.get('e2e_total_ms')?.[0]?.kind === 'num'
    ? (t.rows.get('e2e_total_ms')![0] as { value: number }).value
    : NaN;
}

const TOL = 0.0015; // one unit of the 3rd printed decimal, plus float noise

/** Every relation of docs/formats.md#stage-fields that a printed stage table must obey. Returns violations. */
export function stageTableViolations(t: LogTable, e2eTotalMs: number): string[] {
  const bad: string[] = [];
  const say = (col: string, what: string): void => {
    bad.push(`${t.requestId} stage ${col}: ${what}`);
  };
  for (const col of t.headers) {
    const num = (name: string): number | undefined => {
      const v = field(t, col, name);
      return typeof v === 'number' ? v : undefined;
    };
    const gen = num('stage_gen_time_ms') ?? 0;
    if (gen > e2eTotalMs + TOL) say(col, `stage_gen_time_ms ${gen} > e2e ${e2eTotalMs}`);
    const serving = num('serving_time_to_first_output_ms');
    if (serving !== undefined && serving > e2eTotalMs + TOL) say(col, `serving TTFO ${serving} > e2e`);
    for (const [name, cells] of t.rows) {
      const c = cells[t.headers.indexOf(col)]!;
      if (c.kind === 'num' && c.value < 0) say(col, `${name} negative`);
    }
    const queued = field(t, col, 'vllm_queued_ms');
    if (typeof queued !== 'number') continue;
    const inputWait = field(t, col, 'vllm_input_wait_ms');
    if (typeof inputWait === 'number') {
      // A hidden ready-queued row is a measured 0 (the other stages are None or 0).
      const readyQueued = num('vllm_ready_queued_ms') ?? 0;
      if (Math.abs(inputWait + readyQueued - queued) > TOL)
        say(col, `input wait ${inputWait} + ready queued ${readyQueued} != queued ${queued}`);
    }
    const prefill = field(t, col, 'vllm_prefill_ms');
    const ttft = num('vllm_ttft_ms') ?? 0;
    if (typeof prefill === 'number') {
      if (ttft + TOL < queued + prefill) say(col, `ttft ${ttft} < queued ${queued} + prefill ${prefill}`);
      const decode = num('vllm_decode_ms') ?? 0; // hidden: a measured 0 (MRv2 talker)
      if (gen + 2 * TOL < queued + prefill + decode) say(col, `gen ${gen} < queued + prefill + decode`);
    }
  }
  return bad;
}
