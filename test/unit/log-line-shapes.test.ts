// Two line shapes seen in real logs (docs/formats.md#other-line-shapes):
// a CI runner's timestamp before the whole line (`[2026-01-22T14:19:11Z] ` then the vLLM
// line), and Python's default logging format (`INFO:vllm_omni.entrypoints.async_omni:...`,
// multi-line messages unprefixed after their first line). The upstream-rendered logs are
// rewritten into each shape and must give the same requests as the originals (Python's
// format prints no time: the requests have none); every reader of the prefix (the scanner,
// the regular expression, the shapes of earlier prefixes, the raw-prefix fast path) agrees on
// them, bytes and text alike.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LogStreamParser } from '../../server/core/log';
import {
  CI_STAMP,
  PYTHON_DEFAULT,
  parsePrefix,
  pythonDefaultPrefix,
  scanPrefix,
  searchPrefix,
  stampEndOf,
} from '../../server/core/log/prefix';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { requestJson, type RequestJson } from '../../server/core/report/jsonReport';
import { int, logPrefix, renderColumnsTable, renderTableRecord } from '../../server/simulate/render';
import { FIXTURES, parseBytes, parseChunks, prng, utf8 } from './support/logHelpers';

const UPSTREAM = join(FIXTURES, 'upstream-rendered');
const logs = readdirSync(UPSTREAM)
  .filter((f) => f.endsWith('.log'))
  .sort();

function requestsOf(text: string | Uint8Array): RequestJson[] {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(text));
  analysis.ingest(parser.end());
  analysis.flush();
  assert.deepEqual(analysis.snapshot().problems, []);
  return [...analysis.requests].map(requestJson);
}

/** The same text as bytes (one chunk, and 4 KB chunks) and as a string: one output. */
function assertBytesReadAsText(text: string): void {
  const fromString = parseChunks([text]);
  const bytes = utf8(text);
  assert.deepEqual(parseBytes(bytes), fromString);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 4096) chunks.push(bytes.subarray(i, i + 4096));
  assert.deepEqual(parseChunks(chunks), fromString);
}

/** Every physical line (split at \n, as a CI runner splits) with a CI timestamp before it; the second moves on every 7th line. */
function withCiStamps(text: string, bracketed: boolean): string {
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      if (i === lines.length - 1 && line === '') return line;
      const second = String(Math.floor(i / 7) % 60).padStart(2, '0');
      return bracketed ? `[2026-01-22T14:19:${second}Z] ${line}` : `2026-01-22T14:19:${second}.1234567Z ${line}`;
    })
    .join('\n');
}

const VLLM_PREFIX =
  /^\((?:[^()]|\([^()]*\))*\) (DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d \[[^\]]+\] ?/;

/**
 * The log as Python's default format prints it: `LEVEL:vllm_omni.metrics.stats:` before the
 * first line of a record, its other lines (vLLM's `\r\n` + prefix) bare; `everyLine` puts the
 * prefix before every line instead. Lines of other formatters (uvicorn) lose their process prefix.
 */
function asPythonDefault(text: string, everyLine: boolean): string {
  const out: string[] = [];
  let continuation = false;
  for (const physical of text.split('\n')) {
    const line = physical.endsWith('\r') ? physical.slice(0, -1) : physical;
    const m = VLLM_PREFIX.exec(line);
    if (m === null) out.push(line.replace(/^\([^)]*\) /, ''));
    else if (continuation && !everyLine) out.push(line.slice(m[0].length));
    else out.push(`${m[1]}:vllm_omni.metrics.stats:${line.slice(m[0].length)}`);
    continuation = physical.endsWith('\r');
  }
  return out.join('\n');
}

const withoutTimestamp = (r: RequestJson): RequestJson => ({ ...r, timestamp: null });

for (const log of logs) {
  test(`${log} with a CI timestamp before every line reads as the original`, () => {
    const text = readFileSync(join(UPSTREAM, log), 'utf8');
    const original = requestsOf(text);
    assert.ok(original.length > 0);
    for (const bracketed of [true, false]) {
      const stamped = withCiStamps(text, bracketed);
      assert.deepEqual(requestsOf(stamped), original, bracketed ? '[ISO] ' : 'ISO ');
      assertBytesReadAsText(stamped);
    }
  });

  test(`${log} in Python's default logging format reads as the original, without times`, () => {
    const text = readFileSync(join(UPSTREAM, log), 'utf8');
    const original = requestsOf(text).map(withoutTimestamp);
    for (const everyLine of [false, true]) {
      const python = asPythonDefault(text, everyLine);
      assert.ok(
        python.startsWith('DEBUG:vllm_omni.metrics.stats:') || python.startsWith('INFO:vllm_omni.metrics.stats:'),
        python.slice(0, 80),
      );
      const got = requestsOf(python);
      assert.deepEqual(
        got.map((r) => r.timestamp),
        got.map(() => null),
        'no time in the format',
      );
      assert.deepEqual(got, original, everyLine ? 'every line prefixed' : 'first line of each record prefixed');
      assertBytesReadAsText(python);
      assertBytesReadAsText(withCiStamps(python, true));
      assert.deepEqual(requestsOf(withCiStamps(python, true)), original, 'CI timestamps before Python-format lines');
    }
  });
}

test("Python's default format: [OmniTiming] and the legacy [Summary] dict, continued on unprefixed lines", () => {
  const text = [
    'INFO:vllm_omni.metrics.stats:[OmniTiming] req=r1 total=0.74s preprocess=0.00s engine=0.73s stages=[0:0.61s,1:0.73s] transfers=[0->1=0.00ms]',
    "INFO:vllm_omni.entrypoints.async_omni:[Summary] {'e2e_requests': 3,",
    " 'e2e_total_time_ms': 655866.8,",
    " 'e2e_total_tokens': 0}",
    'INFO:     127.0.0.1:40517 - "POST /v1/audio/speech HTTP/1.1" 200 OK',
    'WARNING:root:something else',
  ].join('\n');
  const parser = new LogStreamParser();
  const out = [...parser.push(text).records, ...parser.end().records];
  assert.deepEqual(
    out.map((r) => r.kind),
    ['omniTiming', 'legacyDict'],
  );
  const legacy = out[1];
  assert.ok(legacy?.kind === 'legacyDict');
  assert.deepEqual(legacy.values, { e2e_requests: 3, e2e_total_time_ms: 655866.8, e2e_total_tokens: 0 });
  assert.equal(legacy.complete, true);
});

test('the prefix readers agree on CI timestamps and Python default prefixes: hand scanners and regular expressions, 20,000 seeded lines', () => {
  const rand = prng(29);
  const pick = (xs: readonly string[]): string => xs[Math.floor(rand() * xs.length)] as string;
  const stamps = [
    '',
    '',
    '[2026-01-22T14:19:11Z] ',
    '2026-01-22T14:19:11.1234567Z ',
    '[2026-01-22T14:19:11] ',
    '[2026-01-22T14:19:11+05:30] ',
    '2026-01-22T14:19:11 ',
    '[2026-01-22 14:19:11Z] ',
    '[2026-01-22T14:19:11.1234567890Z] ',
    '[2026-01-22T14:19:11.Z] ',
    '2026-01-22T14:19:11-0800 ',
    '[2026-01-22T14:19:11Z]',
  ];
  const heads = [
    '(APIServer pid=7) INFO 08-21 18:00:00 [stats.py:910] ',
    '(API (0)) [Stage-1] DEBUG 08-21 18:00:00 [omni_stage.py:7] ',
    'INFO 08-21 18:00:00 [omni.py:1]',
    'INFO:vllm_omni.metrics.stats:',
    'DEBUG:root:',
    'WARNING:_x.y:',
    'INFO:9bad:',
    'INFO:a b:',
    'INFO:     127.0.0.1:40517 - ',
    'ERROR::',
    'msg ',
    `INFO:${'a'.repeat(119)}:`,
    `INFO:${'a'.repeat(120)}:`,
    `INFO:${'a'.repeat(121)}:`,
    `INFO:Z${'@'.repeat(3)}:`,
    'INFO:a[b:',
    'INFO:a`b:',
    'INFO:a{b:',
  ];
  const tails = ['[OmniTiming] req=r', '| a | 1 |', '', 'INFO 08-21 18:00:00 [a.py:1] inner', 'x'];
  const noise = ['Z', ']', '[', '.', '-', '1', ' ', ':', 'T'];
  const lineOf = (): string => {
    const chars = [...`${pick(stamps)}${pick(heads)}${pick(tails)}`];
    // A few lines get one character changed, inserted or removed.
    if (rand() < 0.3) {
      const at = Math.floor(rand() * chars.length);
      const op = rand();
      if (op < 0.4) chars[at] = pick(noise);
      else if (op < 0.7) chars.splice(at, 0, pick(noise));
      else chars.splice(at, 1);
    }
    return chars.join('');
  };
  let scanned = 0;
  let python = 0;
  let stamped = 0;
  for (let n = 0; n < 20_000; n++) {
    const line = lineOf();
    const stamp = CI_STAMP.exec(line);
    assert.equal(stampEndOf(line), stamp === null ? 0 : stamp[0].length, line);
    if (stamp !== null) stamped++;
    const s = scanPrefix(line);
    if (s !== null) {
      scanned++;
      const { timestampStart: _t, ...read } = s;
      assert.deepEqual(read, searchPrefix(line), line);
      assert.equal(s.headerStart, stampEndOf(line), `the scanner reads at the start or after a CI timestamp: ${line}`);
    }
    assert.deepEqual(parsePrefix(line), s ?? searchPrefix(line));
    const rest = line.slice(stampEndOf(line));
    const m = PYTHON_DEFAULT.exec(rest);
    const p = pythonDefaultPrefix(line);
    assert.deepEqual(
      p,
      m === null
        ? null
        : { level: m[1], logger: m[2], headerStart: stampEndOf(line), messageStart: stampEndOf(line) + m[0].length },
      line,
    );
    if (p !== null) python++;
  }
  assert.ok(
    scanned > 1000 && python > 2000 && stamped > 5000,
    `${scanned} scanned, ${python} Python prefixes, ${stamped} stamps`,
  );
});

test('a diffusion stage as upstream prints it now: floats (1.000), None values left out of the row (blank), output_ready_wait_time_s', () => {
  const prefix = logPrefix({
    process: 'APIServer pid=3',
    level: 'DEBUG',
    timestamp: '10-22 09:30:53',
    file: 'vllm_omni/metrics/stats.py',
    fileLine: 1044,
    ansi: false,
  });
  const table = renderColumnsTable('StageRequestStats [request_id=img-1]', [
    {
      header: '0',
      values: {
        stage_gen_time_ms: 850.25,
        num_tokens_out: int(120),
        vllm_prefill_ms: 40.5,
        output_unit_type: 'latent',
      },
    },
    // kv_recv_time_s was None: skipped (upstream's accumulate_diffusion_metrics), so absent from this row.
    {
      header: '1',
      values: {
        stage_gen_time_ms: 8612.345,
        diffusion_engine_exec_time_s: 8.431,
        output_ready_wait_time_s: 0.002,
        preprocess_time_s: 0.014,
        postprocess_time_s: 0.093,
        scheduler_num_waiting_reqs: 1,
        num_inference_steps: int(50),
        output_unit_type: 'image',
      },
    },
  ]);
  const text = renderTableRecord(prefix, table);
  assert.match(
    text,
    /scheduler_num_waiting_reqs +\| +\| +1\.000 \|/,
    'a diffusion count printed as a float, blank in the AR column',
  );
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(text));
  analysis.ingest(parser.end());
  analysis.flush();
  const snapshot = analysis.snapshot();
  assert.deepEqual(snapshot.problems, []);
  const r = requestJson(snapshot.requests[0] as NonNullable<(typeof snapshot.requests)[number]>);
  assert.equal(r.stages['1']?.kind, 'diffusion');
  assert.equal(r.stages['0']?.kind, 'llm');
  assert.equal(r.stages['1']?.fields['output_ready_wait_time_s'], 0.002);
  assert.equal(r.stages['1']?.fields['scheduler_num_waiting_reqs'], 1);
  assert.equal(
    r.stages['0']?.fields['output_ready_wait_time_s'],
    '',
    'blank in the AR column: printed empty, not None, not hidden',
  );
  assert.equal(r.stages['1']?.fields['vllm_prefill_ms'], '');
  assert.ok(!('kv_recv_time_s' in (r.stages['1']?.fields ?? {})), 'None everywhere: the row is not printed');
  assert.equal(r.stages['0']?.splitState['prefillMs'], 'measured');
  assert.equal(r.stages['1']?.splitState['prefillMs'], 'notMeasured', 'a blank split value is not measured');
  const summary = snapshot.stages.find((s) => s.stageKey === '1');
  assert.equal(summary?.fields['output_ready_wait_time_s']?.count, 1);
  assert.equal(
    snapshot.stages.find((s) => s.stageKey === '0')?.fields['output_ready_wait_time_s'],
    undefined,
    'a blank is never a sample',
  );
  assert.ok(
    !snapshot.findings.some((f) => f.code === 'diffusion-zero-ambiguous'),
    'seconds-named values of the missing-value rule are not the old ambiguous zeros',
  );
});
