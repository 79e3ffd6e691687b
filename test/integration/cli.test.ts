// The `stage-lens` CLI as a user runs it: the built dist/cli.js as a real child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { CLI, runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');

interface Json {
  schema: number;
  requests: {
    requestId: string;
    boot: number;
    cold: boolean;
    stages: Record<
      string,
      {
        fields: Record<string, number | string | null>;
        split: Record<string, number | null>;
        splitState: Record<string, string>;
      }
    >;
  }[];
  stageSummary: Record<string, Record<string, { count: number; p50: number }>>;
  findings: { code: string; stageId: number | null; requestIds: string[] }[];
  problems: { line: number; message: string }[];
  stageRoles: Record<string, string>;
}

test('analyze the bundled sample: the codec first-audio signature and two cold starts', (t) => {
  const table = cli(['analyze', SAMPLE]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /25 requests, 2 stages, 2 server boots \(2 cold requests\)/);
  assert.match(table.stdout, /ttft-not-recorded \(stage 1\).*25 of 25 requests/);
  // The file's name says the pipeline (Qwen3-TTS): rows and notes name each stage with its role.
  assert.match(table.stdout, /\n1 · code2wav +25 +p50 /);
  assert.match(table.stdout, /stage 1 · code2wav TTFT: 25 not recorded of 25/);
  assert.match(
    table.stdout,
    /Slowest phase \(p50[^\n]*\): stage 0 · talker prefill\+decode \(one output\) [\d,]+ ms\n {2}\(stage 0 · talker's prefill\+decode is two phases in one number/,
  );
  // A name that says no pipeline: the model the log serves (its start-up args) names the roles.
  const neutralDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-cli-'));
  t.after(() => fs.rmSync(neutralDir, { recursive: true, force: true }));
  const served = path.join(neutralDir, 'run.log');
  fs.copyFileSync(SAMPLE, served);
  assert.match(cli(['analyze', served]).stdout, /\n1 · code2wav +25 +p50 /);
  // Neither the name nor the log says the pipeline: stages go by id, in the table and its findings alike.
  const neutral = path.join(neutralDir, 'server.log');
  const withoutArgs = fs
    .readFileSync(SAMPLE, 'utf8')
    .split('\n')
    .filter((l) => !l.includes('non-default args'));
  fs.writeFileSync(neutral, withoutArgs.join('\n'));
  const plain = cli(['analyze', neutral]);
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /\n1 +25 +p50 /);
  assert.match(plain.stdout, /stage 1 TTFT: 25 not recorded of 25/);
  assert.match(plain.stdout, /: Stage 1 produced output but reported vllm_ttft_ms 0/);
  assert.doesNotMatch(plain.stdout, / · (talker|code2wav)/);
  const plainJson = JSON.parse(cli(['analyze', neutral, '--format', 'json']).stdout) as Json;
  assert.deepEqual(plainJson.stageRoles, {});

  const json = JSON.parse(cli(['analyze', SAMPLE, '--format', 'json']).stdout) as Json;
  assert.equal(json.schema, 1);
  // The roles the table names stages with, for a reader of the JSON (jq) to do the same.
  assert.deepEqual(json.stageRoles, { '0': 'talker', '1': 'code2wav' });
  assert.equal(json.requests.length, 25);
  assert.deepEqual(
    json.requests.filter((r) => r.cold).map((r) => r.boot),
    [1, 2],
  );
  const r = json.requests[3]!;
  assert.equal(r.stages['1']?.fields['vllm_prefill_ms'], null, 'explicit None is null');
  assert.equal('vllm_ready_queued_ms' in (r.stages['1']?.fields ?? {}), false, 'a hidden row is left out');
  assert.equal(r.stages['1']?.split['ttftMs'], null);
  assert.equal(r.stages['1']?.splitState['ttftMs'], 'notRecorded');
  assert.equal(r.stages['1']?.split['readyQueuedMs'], 0);
  assert.equal(r.stages['1']?.splitState['readyQueuedMs'], 'inferred');
  // The printed zeros are TTFTs never set: left out of the field's summary too (docs/formats.md).
  assert.equal(json.stageSummary['1']?.['vllm_ttft_ms'], undefined, 'no distribution of the printed zeros');
  assert.equal(json.stageSummary['1']?.['serving_time_to_first_output_ms']?.count, 25);
  assert.equal(json.findings.find((f) => f.code === 'ttft-not-recorded')?.requestIds.length, 25);
  assert.deepEqual(json.problems, []);

  const csv = cli(['analyze', SAMPLE, '--format', 'csv']).stdout.trim().split('\n');
  assert.equal(csv.length, 1 + 25 * 2, 'one row per request and stage');
  const header = csv[0]!.split(',');
  const codecRow = csv.find((l) => l.includes(`,1,1,0,llm,`))!.split(',');
  assert.equal(codecRow[header.indexOf('ttftMs')], 'notRecorded');
  assert.equal(
    codecRow[header.indexOf('ttftMs_state')],
    'notRecorded',
    'one spelling per state: the value cell and the state column agree',
  );
  assert.equal(codecRow[header.indexOf('prefillMs')], 'notMeasured');
  assert.equal(codecRow[header.indexOf('prefillMs_state')], 'notMeasured');
  assert.equal(codecRow[header.indexOf('readyQueuedMs')], '0');
  assert.equal(codecRow[header.indexOf('readyQueuedMs_state')], 'inferred');
  // A derived value at the log's precision: 9092.733 - 10034.441, not -941.7080000000005.
  assert.equal(
    csv.find((l) => l.startsWith('speech-5bd188e314d812a5,') && l.includes(',1,1,0,llm,'))!.split(',')[
      header.indexOf('added_time_to_first_output_ms')
    ],
    '-941.708',
  );
  assert.equal(
    (
      JSON.parse(cli(['analyze', SAMPLE, '--format', 'json']).stdout) as {
        requests: { addedTimeToFirstOutputMs: Record<string, number> }[];
      }
    ).requests[0]?.addedTimeToFirstOutputMs['1'],
    -941.708,
  );
  // A list cell: its mean, and its n.
  assert.equal(codecRow[header.indexOf('vllm_itls_ms_n')], String(Number(codecRow[header.indexOf('vllm_itls_ms_n')])));
  assert.ok(Number(codecRow[header.indexOf('vllm_itls_ms_n')]) > 0);
});

/** The cells of one CSV line (RFC 4180 quoting; no line breaks inside cells here). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (line[i] === '"') {
      for (i++; i < line.length; i++) {
        if (line[i] === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (line[i] === '"') break;
        else cell += line[i];
      }
      i++;
    } else {
      const end = line.indexOf(',', i);
      cell = line.slice(i, end === -1 ? line.length : end);
      i = end === -1 ? line.length : end;
    }
    cells.push(cell);
    if (line[i] !== ',') return cells;
    i++;
  }
}

test('CSV: hostile request ids are neutralized for spreadsheets, numbers stay numbers; JSON keeps them as they are', () => {
  const ids = [
    '=HYPERLINK("http://evil.example","x")',
    '+1+2',
    '-2+3',
    '@SUM(A1)',
    '\tcmd',
    'a\u0001b\u001bc',
    '=cmd|"/c_calc"!A1',
    'plain-1',
  ];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-csv-'));
  try {
    const log = path.join(dir, 'hostile.log');
    const P = '(APIServer pid=7) INFO 10-22 09:30:00 [stats.py:910] ';
    const unescape = (s: string): string =>
      s.replace(/\\t/g, '\t').replace(/\\u(....)/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    const real = ids.map(unescape);
    fs.writeFileSync(
      log,
      real
        .map((id, i) => `${P}[OmniTiming] req=${id} total=1.00s stages=[0:0.50s,1:-0.25s] transfers=[0->1=${i}.00ms]\n`)
        .join(''),
    );
    const out = cli(['analyze', log, '--format', 'csv']);
    assert.equal(out.status, 0, out.stderr);
    const rows = out.stdout.trim().split('\n').slice(1).map(csvCells);
    const firstCells = [...new Set(rows.map((r) => r[0]))];
    assert.deepEqual(firstCells, [
      `'=HYPERLINK("http://evil.example","x")`,
      "'+1+2",
      "'-2+3",
      "'@SUM(A1)",
      "'\u2409cmd",
      'a\u2401b\u241bc',
      `'=cmd|"/c_calc"!A1`,
      'plain-1',
    ]);
    // Nothing a spreadsheet would evaluate or a terminal would interpret is left at the start of a cell or anywhere in it.
    for (const row of rows) {
      for (const cell of row)
        assert.ok(
          (!/^[=+\-@\t\r]/.test(cell) || /^-\d+(\.\d+)?$/.test(cell)) && !/[\u0000-\u001f]/.test(cell),
          `unsafe cell ${JSON.stringify(cell)}`,
        );
    }
    // Numbers stay numbers: the [OmniTiming] send time of request 3 is 3, of request 0 the state word.
    const header = out.stdout.split('\n')[0]!.split(',');
    const transferRows = rows.filter((r) => r[header.indexOf('kind')] === 'transfer');
    const tx = header.indexOf('omni_timing_tx_ms');
    assert.deepEqual(
      transferRows.map((r) => r.slice(tx, tx + 2).join(',')),
      ['0,notRecorded', ...ids.slice(1).map((_, i) => `${i + 1},measured`)],
    );
    assert.equal(header[tx + 1], 'omni_timing_tx_state');
    // A negative printed stage time is a number cell, as printed (a spreadsheet does not evaluate it).
    const stageRows = rows.filter((r) => r[header.indexOf('stage')] === '1');
    assert.equal(stageRows[0]?.[header.indexOf('omni_timing_stage_s')], '-0.25');
    const json = JSON.parse(cli(['analyze', log, '--format', 'json']).stdout) as { requests: { requestId: string }[] };
    assert.deepEqual(
      json.requests.map((r) => r.requestId),
      real,
      'JSON is not neutralized: the ids as printed',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('analyze reads stdin and tells a /metrics scrape from a log by content', () => {
  const log = fs.readFileSync(SAMPLE, 'utf8');
  const fromStdin = cli(['analyze', '-', '--format', 'json'], { input: log });
  assert.equal((JSON.parse(fromStdin.stdout) as Json).requests.length, 25);
  const scrape =
    [
      '# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.',
      '# TYPE vllm:time_to_first_token_seconds histogram',
      'vllm:time_to_first_token_seconds_bucket{le="0.1",model_name="m",stage="0",replica="0"} 2',
      'vllm:time_to_first_token_seconds_bucket{le="1",model_name="m",stage="0",replica="0"} 4',
      'vllm:time_to_first_token_seconds_bucket{le="+Inf",model_name="m",stage="0",replica="0"} 4',
      'vllm:time_to_first_token_seconds_sum{model_name="m",stage="0",replica="0"} 1.5',
      'vllm:time_to_first_token_seconds_count{model_name="m",stage="0",replica="0"} 4',
    ].join('\n') + '\n';
  const out = JSON.parse(cli(['analyze', '-', '--format', 'json'], { input: scrape }).stdout) as {
    histograms: { family: string; count: number; p50: number; p90: number }[];
  };
  assert.equal(out.histograms.length, 1);
  assert.equal(out.histograms[0]?.count, 4);
  assert.equal(out.histograms[0]?.p50, 0.1, 'rank 2 of 4 is the top of the first bucket');
  assert.ok(Math.abs((out.histograms[0]?.p90 ?? 0) - 0.82) < 1e-9, 'linear within (0.1, 1]: 0.1 + 0.9 * (3.6 - 2) / 2');

  // The speech streaming counters, in the scrape summary and the JSON.
  const streams =
    [
      scrape,
      '# TYPE vllm_omni:speech_stream_completed_total counter',
      'vllm_omni:speech_stream_completed_total{model_name="m"} 12',
      '# TYPE vllm_omni:speech_stream_aborted_total counter',
      'vllm_omni:speech_stream_aborted_total{model_name="m",reason="cancelled"} 2',
      'vllm_omni:speech_stream_aborted_total{model_name="m",reason="engine_dead"} 1',
    ].join('\n') + '\n';
  const json = JSON.parse(cli(['analyze', '-', '--format', 'json'], { input: streams }).stdout) as {
    speechStreams: unknown[];
  };
  assert.deepEqual(json.speechStreams, [
    { modelName: 'm', completed: 12, aborted: { cancelled: 2, engine_dead: 1 }, abortedTotal: 3 },
  ]);
  const table = cli(['analyze', '-'], { input: streams }).stdout;
  assert.match(table, /Speech streams/);
  assert.match(table, /^m +12 +3 +2 +1$/m);
  assert.deepEqual((JSON.parse(fromStdin.stdout) as { speechStreams: unknown[] }).speechStreams, [], 'a log has none');
});

test('analyze of a /metrics scrape marks the codec TTFT signature series in the table and says why', () => {
  const series = (
    family: string,
    labels: string,
    buckets: [string, number][],
    sum: number,
    count: number,
  ): string[] => [
    `# TYPE ${family} histogram`,
    ...buckets.map(([le, n]) => `${family}_bucket{le="${le}",${labels}} ${n}`),
    `${family}_sum{${labels}} ${sum}`,
    `${family}_count{${labels}} ${count}`,
  ];
  const codec = 'model_name="m",stage="1",replica="0"';
  const talker = 'model_name="m",stage="0",replica="0"';
  const scrape = [
    ...series(
      'vllm:time_to_first_token_seconds',
      talker,
      [
        ['0.1', 3],
        ['+Inf', 3],
      ],
      0.15,
      3,
    ),
    // The codec: no TTFT sample, yet 39 inter-token latencies and a negative prefill sum (seed 000).
    ...series(
      'vllm:time_to_first_token_seconds',
      codec,
      [
        ['0.1', 0],
        ['+Inf', 0],
      ],
      0,
      0,
    ),
    ...series(
      'vllm:inter_token_latency_seconds',
      codec,
      [
        ['0.1', 30],
        ['+Inf', 39],
      ],
      3120,
      39,
    ),
    ...series(
      'vllm:request_prefill_time_seconds',
      codec,
      [
        ['0.3', 8],
        ['+Inf', 8],
      ],
      -3929763,
      8,
    ),
  ].join('\n');
  const table = cli(['analyze', '-'], { input: scrape }).stdout;
  assert.match(table, /^vllm:inter_token_latency_seconds ! +1 +0 +39 /m, 'the codec ITL row is marked');
  assert.match(table, /^vllm:time_to_first_token_seconds +0 +0 +3 /m, "the talker's TTFT row is not");
  assert.match(table, /Known to mislead \(marked !\): \d+ series:/);
  assert.match(table, /TTFT not recorded on stage 1: no TTFT sample but 39 inter-token latencies/);
  const json = JSON.parse(cli(['analyze', '-', '--format', 'json'], { input: scrape }).stdout) as {
    histograms: { family: string; labels: Record<string, string>; caveat: string | null }[];
  };
  const marked = json.histograms.filter((h) => h.caveat !== null).map((h) => `${h.family} ${h.labels['stage']}`);
  assert.ok(marked.includes('vllm:inter_token_latency_seconds 1'));
  assert.equal(marked.filter((m) => m.endsWith(' 0')).length, 0);
  // Without the signature nothing is marked and no such note is printed.
  assert.doesNotMatch(
    cli(['analyze', '-'], {
      input:
        series(
          'vllm:time_to_first_token_seconds',
          talker,
          [
            ['0.1', 3],
            ['+Inf', 3],
          ],
          0.15,
          3,
        ).join('\n') + '\n',
    }).stdout,
    /Known to mislead| !/,
  );
});

test('a /metrics scrape file larger than the head read at once is told apart by content and read whole', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-scrape-'));
  try {
    const lines = ['# TYPE vllm:e2e_request_latency_seconds histogram'];
    for (let stage = 0; stage < 120; stage++) {
      const labels = `model_name="m",stage="${stage}",replica="0"`;
      lines.push(
        `vllm:e2e_request_latency_seconds_bucket{le="1",${labels}} ${stage}`,
        `vllm:e2e_request_latency_seconds_bucket{le="+Inf",${labels}} ${stage + 1}`,
        `vllm:e2e_request_latency_seconds_sum{${labels}} 2.5`,
        `vllm:e2e_request_latency_seconds_count{${labels}} ${stage + 1}`,
      );
    }
    const file = path.join(dir, 'metrics.txt');
    fs.writeFileSync(file, lines.join('\n') + '\n');
    assert.ok(fs.statSync(file).size > 4096 * 4, 'the first read holds more than the kind needs');
    const out = JSON.parse(cli(['analyze', file, '--format', 'json']).stdout) as {
      histograms: { labels: Record<string, string>; count: number }[];
      requests?: unknown[];
    };
    assert.equal(out.histograms.length, 120);
    assert.deepEqual(
      out.histograms.filter((h) => h.labels['stage'] === '119').map((h) => h.count),
      [120],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a rotated, xz-compressed log: analyze and explain say so and how to read it, and exit 2; a gzip one is read', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-xz-'));
  try {
    // xz's magic number and a stream Node has no decoder for.
    const xz = path.join(dir, 'server.log.1.xz');
    fs.writeFileSync(xz, Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), Buffer.alloc(200, 3)]));
    const analyzed = cli(['analyze', xz]);
    assert.equal(analyzed.status, 2);
    assert.equal(
      analyzed.stderr,
      `stage-lens analyze: nothing in ${xz} was read: the input is xz-compressed, not a text log: decompress it first (xzcat)\n`,
    );
    // The JSON a script reads says it too, with the same status.
    const json = cli(['analyze', xz, '--format', 'json']);
    assert.equal(json.status, 2);
    assert.deepEqual(
      (JSON.parse(json.stdout) as Json).findings.map((f) => f.code),
      ['input-compressed'],
    );
    assert.match(analyzed.stdout, /No per-request stage statistics: the input is a compressed file, not a text log/);
    assert.match(
      analyzed.stdout,
      /\[error\] input-compressed: The input is xz-compressed .*`xzcat server\.log\.1\.xz \| stage-lens analyze -`/,
    );
    assert.doesNotMatch(analyzed.stdout, /VLLM_LOGGING_LEVEL=DEBUG/);
    const explained = cli(['explain', xz]);
    assert.equal(explained.status, 2);
    assert.match(explained.stdout, /The input is xz-compressed/);
    assert.match(explained.stderr, /^stage-lens explain: .*server\.log\.1\.xz: The input is xz-compressed/);
    // gzip is read as the log inside it (cli-gzip.test.ts has the rest).
    const gz = path.join(dir, 'server.log.1.gz');
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(SAMPLE)));
    const gzipped = cli(['analyze', gz]);
    assert.equal(gzipped.status, 0, gzipped.stderr);
    assert.match(
      gzipped.stdout,
      /^Stage Lens: 25 requests, 2 stages, 2 server boots .* from .*server\.log\.1\.gz \(gzip\)\n/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('binary data, zeros only or an empty input given as a log: analyze (every format) says so and exits 2; explain says which', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-bin-'));
  try {
    const junk = path.join(dir, 'junk.bin');
    const bytes = Buffer.alloc(200_000);
    for (let i = 0, x = 1; i < bytes.length; i++) bytes[i] = (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) >>> 24;
    fs.writeFileSync(junk, bytes);
    const table = cli(['analyze', junk]);
    assert.equal(table.status, 2);
    assert.match(table.stdout, /No per-request stage statistics: the input is binary data, not a text log/);
    assert.match(table.stdout, /\[error\] input-binary: The input is binary data/);
    assert.doesNotMatch(table.stdout, /VLLM_LOGGING_LEVEL=DEBUG/);
    assert.equal(
      table.stderr,
      `stage-lens analyze: nothing in ${junk} was read: the input is binary data, not a text log\n`,
    );
    for (const format of ['json', 'csv', 'trace'])
      assert.equal(cli(['analyze', junk, '--format', format]).status, 2, format);
    const explained = cli(['explain', junk]);
    assert.equal(explained.status, 2);
    assert.match(explained.stderr, /^stage-lens explain: .*junk\.bin: The input is binary data/);

    const empty = path.join(dir, 'empty.log');
    fs.writeFileSync(empty, '');
    const read = cli(['analyze', empty]);
    assert.equal(read.status, 2);
    assert.match(read.stdout, /\n\nThe input is empty \(0 bytes\): nothing was read\./);
    assert.doesNotMatch(read.stdout, /VLLM_LOGGING_LEVEL=DEBUG|No per-request stage statistics/);
    assert.equal(read.stderr, `stage-lens analyze: nothing in ${empty} was read: it is empty (0 bytes)\n`);
    for (const format of ['json', 'csv', 'trace'])
      assert.equal(cli(['analyze', empty, '--format', format]).status, 2, format);
    const stdin = cli(['analyze', '-'], { input: '' });
    assert.equal(stdin.status, 2);
    assert.match(stdin.stdout, /The input is empty \(0 bytes\)/);
    assert.equal(stdin.stderr, 'stage-lens analyze: nothing in stdin was read: it is empty (0 bytes)\n');
    // One line break is not empty: a log without stats, read (exit 0).
    const blank = cli(['analyze', '-'], { input: '\n' });
    assert.equal(blank.status, 0, blank.stderr);
    assert.match(blank.stdout, /No per-request stage statistics found/);

    // A zero-filled file (space reserved, nothing written): said so, not the --log-stats advice.
    const zeros = path.join(dir, 'preallocated.log');
    fs.writeFileSync(zeros, Buffer.alloc(300_000));
    const zeroTable = cli(['analyze', zeros]);
    assert.equal(zeroTable.status, 2);
    assert.match(zeroTable.stdout, /\[error\] input-zero-filled: The input is 300,000 NUL bytes and nothing else/);
    assert.doesNotMatch(zeroTable.stdout, /--log-stats|binary data/);
    assert.equal(
      zeroTable.stderr,
      `stage-lens analyze: nothing in ${zeros} was read: the input is 300,000 NUL bytes and nothing else (a zero-filled file), not a text log\n`,
    );
    const zeroJson = cli(['analyze', zeros, '--format', 'json']);
    assert.equal(zeroJson.status, 2);
    assert.deepEqual(
      (JSON.parse(zeroJson.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code),
      ['input-zero-filled'],
    );
    assert.match(
      cli(['explain', zeros]).stderr,
      /^stage-lens explain: .*preallocated\.log: The input is 300,000 NUL bytes/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('exit codes: 2 for usage and I/O errors with a clear message, 0 for findings', () => {
  const missing = cli(['analyze', '/no/such/file.log']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read \/no\/such\/file\.log: no such file/);
  for (const command of ['analyze', 'explain']) {
    const url = cli([command, 'http://127.0.0.1:8000/metrics']);
    assert.equal(url.status, 2, command);
    assert.equal(url.stdout, '');
    assert.equal(
      url.stderr,
      `stage-lens ${command}: http://127.0.0.1:8000/metrics is a URL: ${command} reads a file or stdin, not the network. To read a /metrics scrape, pipe it in: curl -s http://127.0.0.1:8000/metrics | stage-lens ${command} -\n`,
    );
  }
  const badFormat = cli(['analyze', SAMPLE, '--format', 'xml']);
  assert.equal(badFormat.status, 2);
  assert.match(badFormat.stderr, /--format must be table, json, csv or trace \(got 'xml'\)/);
  const liveJson = cli(['analyze', SAMPLE, '--follow', '--format', 'json']);
  assert.equal(liveJson.status, 2);
  assert.match(liveJson.stderr, /--follow shows a live table; --format json is written from a whole log/);
  assert.equal(liveJson.stdout, '');
  assert.equal(cli(['analyze']).status, 2);
  assert.equal(cli(['frobnicate']).status, 2);
  const garbage = cli(['analyze', '-', '--format', 'json'], {
    input: '\u0000\u00ff garbage | not | a table\n[StageRequestStats [request_id=x]]\n| Field | 0 |\n',
  });
  assert.equal(garbage.status, 0, 'input was read');
});

test('usage errors: an unknown option is quoted whole, --duration without --follow is refused (exit 2, nothing on stdout)', () => {
  for (const command of ['analyze', 'explain']) {
    const r = cli([command, SAMPLE, '--bogus']);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      new RegExp(
        `^stage-lens ${command}: unknown option '--bogus' \\(an input whose name starts with '-' goes after '--', as in: -- --bogus\\)\n`,
      ),
    );
  }
  const short = cli(['compare', SAMPLE, SAMPLE, '-z']);
  assert.equal(short.status, 2);
  assert.match(short.stderr, /^stage-lens compare: unknown option '-z' \(.*as in: -- -z\)\n/);
  const duration = cli(['analyze', SAMPLE, '--duration', '2']);
  assert.equal(duration.status, 2);
  assert.equal(duration.stdout, '');
  assert.match(duration.stderr, /^stage-lens analyze: --duration needs --follow/);
});

test(
  'analyze --follow shows a live table of a growing file and ends with a final summary',
  { timeout: 30_000 },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-follow-'));
    const file = path.join(dir, 'server.log');
    const lines = fs.readFileSync(SAMPLE, 'utf8').split('\n');
    const child = spawn(process.execPath, [CLI, 'analyze', '--follow', file, '--duration', '4'], { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // The file appears after the follower started, then grows in pieces (partial lines included).
    await new Promise((r) => setTimeout(r, 500));
    const text = lines.join('\n');
    const third = Math.floor(text.length / 3);
    fs.writeFileSync(file, text.slice(0, third));
    await new Promise((r) => setTimeout(r, 800));
    fs.appendFileSync(file, text.slice(third, 2 * third));
    await new Promise((r) => setTimeout(r, 800));
    fs.appendFileSync(file, text.slice(2 * third));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 0);
    const final = out.slice(out.lastIndexOf('Final summary'));
    assert.match(final, /25 requests, 2 stages, 2 server boots/);
    assert.ok(out.split('Live ·').length >= 3, 'refreshed while following');
  },
);

test(
  'analyze --follow before the first request: live frames say it waits, and for how long; the final summary gives the advice',
  { timeout: 30_000 },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-wait-'));
    try {
      // A server still starting: output, no request yet.
      const file = path.join(dir, 'server.log');
      fs.writeFileSync(
        file,
        'INFO 02-06 15:29:11 [api_server.py:1] Starting vLLM API server\nINFO 02-06 15:29:12 [loader.py:2] Loading weights\n',
      );
      // Live frames are drawn on a terminal only (a pseudo-terminal here, wide enough for every line).
      const follow = (log: string, seconds: string): { stdout: string; frames: string[] } => {
        const command = `stty cols 400 rows 200; ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} analyze --follow ${JSON.stringify(log)} --duration ${seconds}`;
        const r = spawnSync('script', ['-qfc', command, '/dev/null'], { encoding: 'utf8', timeout: 20_000, cwd: ROOT });
        assert.equal(r.status, 0, r.stderr);
        const stdout = r.stdout.replace(/\r\n/g, '\n');
        const live = stdout.slice(0, stdout.lastIndexOf('Final summary'));
        return { stdout, frames: live.split('\x1b[H\x1b[2J').slice(1) };
      };
      const waiting = follow(file, '2.5');
      const frames = waiting.frames;
      assert.ok(frames.length >= 2, waiting.stdout);
      // Each frame says how long it has waited: at least a second, and never less than the frame before.
      const waited = frames.map((frame) => {
        const m = /Waiting for the first request \((\d+) s so far\): a request shows once/.exec(frame);
        assert.ok(m !== null, frame);
        return Number(m[1]);
      });
      assert.ok(waited[0]! >= 1 && waited.every((w, i) => i === 0 || w >= waited[i - 1]!), waited.join(', '));
      assert.doesNotMatch(frames.join(''), /VLLM_LOGGING_LEVEL=DEBUG/);
      const final = waiting.stdout.slice(waiting.stdout.lastIndexOf('Final summary'));
      assert.match(final, /No per-request stage statistics found\. .*VLLM_LOGGING_LEVEL=DEBUG/);
      assert.doesNotMatch(final, /Waiting/);
      // Into a pipe: no frames, a line with the count read so far, then the final summary with the advice.
      const piped = spawnSync(process.execPath, [CLI, 'analyze', '--follow', file, '--duration', '1.5'], {
        encoding: 'utf8',
        timeout: 20_000,
        cwd: ROOT,
      });
      assert.equal(piped.status, 0, piped.stderr);
      assert.match(piped.stdout, /^Live · following .*server\.log · \d+s · 0 requests so far\n\nFinal summary/);
      assert.match(piped.stdout, /VLLM_LOGGING_LEVEL=DEBUG/);

      // An INFO-level server that served requests: the frames give the advice at once.
      const info = path.join(dir, 'info.log');
      fs.copyFileSync(
        path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-info-level-omnitiming-only.log'),
        info,
      );
      const infoRun = follow(info, '1.5');
      const firstFrame = infoRun.frames[0] ?? '';
      assert.match(firstFrame, /6 requests/);
      assert.match(firstFrame, /only \[OmniTiming\] lines: vLLM-Omni logs its stats tables at DEBUG/);
      assert.doesNotMatch(infoRun.stdout, /Waiting for the first request/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('analyze --format json: one request per line, or indented with --pretty; the same document', () => {
  const compact = cli(['analyze', SAMPLE, '--format', 'json']);
  const pretty = cli(['analyze', SAMPLE, '--format', 'json', '--pretty']);
  assert.equal(compact.status, 0, compact.stderr);
  assert.equal(pretty.status, 0, pretty.stderr);
  const lines = compact.stdout.split('\n');
  assert.deepEqual(lines.slice(0, 3), ['{', '"schema":1,', '"requests":[']);
  const requestLines = lines.filter((line) => line.startsWith('{"requestId":'));
  assert.equal(requestLines.length, 25);
  assert.equal((JSON.parse(requestLines[3]!.replace(/,$/, '')) as { boot: number }).boot, 1);
  assert.equal(pretty.stdout, JSON.stringify(JSON.parse(compact.stdout), null, 2) + '\n');
  assert.ok(
    compact.stdout.length < 0.6 * pretty.stdout.length,
    `${compact.stdout.length} against ${pretty.stdout.length}`,
  );
  const csv = cli(['analyze', SAMPLE, '--format', 'csv', '--pretty']);
  assert.equal(csv.status, 2);
  assert.match(csv.stderr, /--pretty applies to --format json \(the format is csv\)/);
});

test('demo: the simulator as a child process, live table, bounded time, final summary', { timeout: 60_000 }, () => {
  const demo = cli(['demo', '--duration', '6', '--speed', '8', '--rps', '6']);
  assert.equal(demo.status, 0, demo.stderr);
  const final = demo.stdout.slice(demo.stdout.lastIndexOf('Final summary'));
  const n = Number(/Stage Lens: (\d+) requests/.exec(final)?.[1]);
  assert.ok(n >= 5, `requests captured live: ${n}`);
  assert.match(final, /ttft-not-recorded \(stage 1\)/);
  assert.match(final, /cold-start/);
  // The simulator's pipeline is Qwen3-TTS: its findings name the stages' roles, as the views do.
  assert.match(final, /: Stage 1 · code2wav produced output but reported vllm_ttft_ms 0/);
});

test('demo of the AR -> diffusion scenario names its stages AR and diffusion', { timeout: 60_000 }, () => {
  const demo = cli(['demo', '--scenario', 'glm-image', '--duration', '4', '--speed', '8', '--rps', '2']);
  assert.equal(demo.status, 0, demo.stderr);
  const final = demo.stdout.slice(demo.stdout.lastIndexOf('Final summary'));
  assert.match(final, /^0 · AR +\d+ +p50 /m);
  assert.match(final, /^1 · diffusion +\d+ +p50 /m);
  assert.doesNotMatch(demo.stdout, /· (talker|code2wav)/);
});

test(
  'a reader that closes the pipe early ends the output quietly: exit 0, no stack trace',
  { timeout: 60_000 },
  async () => {
    // 40 copies of the sample: a JSON report of ~1,000 requests, far more than a pipe buffers.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-epipe-'));
    try {
      const log = path.join(dir, 'big.log');
      fs.writeFileSync(log, fs.readFileSync(SAMPLE, 'utf8').repeat(40));
      const child = spawn(process.execPath, [CLI, 'analyze', log, '--format', 'json'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      let first = '';
      await new Promise<void>((resolve) => {
        child.stdout.once('data', (d: Buffer) => {
          first = d.toString();
          child.stdout.destroy(); // what `head` does once it has its lines
          resolve();
        });
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      assert.match(first, /^\{\n"schema":1,\n"requests":\[\n\{"requestId":/);
      assert.equal(stderr, '', 'nothing on stderr');
      assert.equal(code, 0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('analyze --deploy-config: the finding names what the config sets; without the option the YAML library is not loaded', () => {
  const log = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
  const config = path.join(ROOT, 'test', 'fixtures', 'deploy', 'qwen3_tts.yaml');
  const evidence =
    /The deploy config qwen3_tts\.yaml agrees: stage 0 runs with model_runner: v2 \(qwen3_tts\.yaml line 14\) and async_chunk: true \(qwen3_tts\.yaml line 15\)\./;
  const table = cli(['analyze', log, '--deploy-config', config]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout.replace(/\s+/g, ' '), evidence);
  const json = JSON.parse(cli(['analyze', log, '--format', 'json', '--deploy-config', config]).stdout) as {
    findings: { code: string; message: string }[];
  };
  assert.match(json.findings.find((f) => f.code === 'prefill-covers-decode')?.message ?? '', evidence);
  // The file names the pipeline (Qwen3-TTS): each stage is named with its role, as the views name it.
  assert.match(
    json.findings.find((f) => f.code === 'prefill-covers-decode')?.message ?? '',
    /^Stage 0 · talker emits one output/,
  );
  assert.doesNotMatch(cli(['analyze', log]).stdout.replace(/\s+/g, ' '), /The deploy config/);
  // Start-up: the analyze bundle requires the deploy-evidence bundle (and with it the YAML library) only for the option.
  const analyzeBundle = fs.readFileSync(path.join(ROOT, 'dist', 'cli-analyze.js'), 'utf8');
  assert.doesNotMatch(analyzeBundle, /node_modules\/yaml\//);
  assert.match(fs.readFileSync(path.join(ROOT, 'dist', 'cli-deploy-evidence.js'), 'utf8'), /node_modules\/yaml\//);
});

test('analyze --deploy-config: YAML that does not parse, or is no deploy config, exits 2 and says why; a config of other stages is no evidence', () => {
  const log = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-before-fix.log');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-config-'));
  try {
    const broken = path.join(dir, 'broken.yaml');
    fs.writeFileSync(broken, 'stages:\n  - stage_id: 0\nhello: [1, 2\n');
    const notConfig = path.join(dir, 'other.yaml');
    fs.writeFileSync(notConfig, 'name: something else\nitems: [1, 2]\n');
    const r1 = cli(['analyze', log, '--deploy-config', broken]);
    assert.equal(r1.status, 2);
    assert.match(
      r1.stderr,
      /^stage-lens analyze: the deploy config .*broken\.yaml is not valid YAML: line \d+: Flow sequence/,
    );
    assert.equal(r1.stdout, '');
    // An overlay without its base is a fragment (here: stage 0 of the platform fallbacks only).
    const overlay = path.join(dir, 'qwen3_tts_mrv2.yaml');
    fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'deploy', 'qwen3_tts_mrv2.yaml'), overlay);
    const r3 = cli(['analyze', log, '--deploy-config', overlay]);
    assert.equal(r3.status, 2);
    assert.match(
      r3.stderr,
      /qwen3_tts_mrv2\.yaml cannot be resolved: `base_config` file not found: .*qwen3_tts\.yaml \(qwen3_tts_mrv2\.yaml line 4\)/,
    );
    const r2 = cli(['analyze', log, '--deploy-config', notConfig]);
    assert.equal(r2.status, 2);
    assert.match(r2.stderr, /other\.yaml is not a vLLM-Omni deploy config \(no stages with a stage_id/);
    // Three stages against this log's two: not the config this server ran.
    const omni = cli([
      'analyze',
      log,
      '--deploy-config',
      path.join(ROOT, 'test', 'fixtures', 'deploy', 'qwen3_omni_moe.yaml'),
    ]);
    assert.equal(omni.status, 0, omni.stderr);
    const text = omni.stdout.replace(/\s+/g, ' ');
    assert.match(
      text,
      /The deploy config qwen3_omni_moe\.yaml has stages 0, 1 and 2, this log's requests have stages 0 and 1: it is not the config this server ran, so its settings are no evidence here\./,
    );
    assert.doesNotMatch(text, /qwen3_omni_moe\.yaml (agrees|sets)/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('analyze reads a log saved as UTF-16 (PowerShell 5 redirect: UTF-16LE, byte-order mark, CRLF)', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-utf16-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const utf8Log = path.join(dir, 'utf8.log');
  const utf16Log = path.join(dir, 'utf16.log');
  const text = fs.readFileSync(SAMPLE, 'utf8');
  fs.writeFileSync(utf8Log, text);
  fs.writeFileSync(
    utf16Log,
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replaceAll('\n', '\r\n'), 'utf16le')]),
  );
  const fromUtf8 = cli(['analyze', utf8Log, '--format', 'json']);
  const fromUtf16 = cli(['analyze', utf16Log, '--format', 'json']);
  assert.equal(fromUtf16.status, 0, fromUtf16.stderr);
  const report = JSON.parse(fromUtf16.stdout) as Json;
  assert.equal(report.requests.length, 25);
  assert.deepEqual(report, JSON.parse(fromUtf8.stdout));
});
