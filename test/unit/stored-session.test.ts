// The stored files of a session read back: session.json's shape check, and chunks.idx
// with the bytes of each stream (real files): capture order and times, a torn last line,
// bytes without an index line, a corrupt line in the middle (nothing after it is lost),
// and a reader that follows files still being written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SessionFiles } from '../../server/capture/sessionFiles';
import { checkSessionMeta, parseSessionMeta } from '../../server/capture/storage/storedMeta';
import { checkPrometheusState } from '../../server/capture/storage/storedPrometheus';
import type { StoredChunk } from '../../server/capture/storage/storedChunks';
import type { ChunkStream } from '../../server/capture/source';

const INFO = {
  id: 's1',
  kind: 'tail',
  description: '/var/log/x.log',
  startedAt: 1000,
  status: 'stopped',
  requestCount: 3,
  deployConfig: null,
  lastError: null,
  exit: null,
  problemCount: 0,
};

test('session.json: a whole session passes, extra fields are kept, access is dropped', () => {
  const checked = checkSessionMeta(
    { info: { ...INFO, access: { readOnly: true } }, tail: { path: '/var/log/x.log', fromStart: true }, pgid: 42 },
    's1',
  );
  assert.ok(checked.ok);
  assert.equal((checked.meta as unknown as { pgid: number }).pgid, 42);
  assert.equal('access' in checked.meta.info, false);
  assert.deepEqual(checked.meta.tail, { path: '/var/log/x.log', fromStart: true });
  // An import's log span and ordinal (absent in metadata saved without them).
  const span = { first: '10-19 07:12:04', last: '10-19 07:12:12' };
  const imported = checkSessionMeta({ info: { ...INFO, kind: 'import', logSpan: span, importOrdinal: 2 } }, 's1');
  assert.ok(imported.ok);
  assert.deepEqual(imported.meta.info.logSpan, span);
  assert.equal(imported.meta.info.importOrdinal, 2);
  assert.ok(checkSessionMeta({ info: { ...INFO, logSpan: null } }, 's1').ok);
  // Where an imported .gz broke off (its bytes cannot say it).
  const inputDamage = {
    stream: 'file',
    message: 'the gzip data ends after 3.2 MB of log',
    gzipDamaged: { logBytes: 3_200_000 },
  };
  const damaged = checkSessionMeta({ info: { ...INFO, kind: 'import' }, inputDamage }, 's1');
  assert.ok(damaged.ok);
  assert.deepEqual(damaged.meta.inputDamage, inputDamage);
  // An imported /metrics scrape's: its finding is the scrape's.
  const scrapeDamage = {
    ...inputDamage,
    message: 'the gzip data ends after 24 KB of the /metrics scrape',
    input: 'scrape',
  };
  const scrape = checkSessionMeta({ info: { ...INFO, kind: 'import' }, inputDamage: scrapeDamage }, 's1');
  assert.ok(scrape.ok);
  assert.deepEqual(scrape.meta.inputDamage, scrapeDamage);
  // Several files imported as one log: where each file's lines are (its bytes are the files joined).
  const fileLines = [
    { file: '/logs/server.log.1', firstLine: 1, lines: 503 },
    { file: '/logs/server.log', firstLine: 504, lines: 0 },
  ];
  const joined = checkSessionMeta({ info: { ...INFO, kind: 'import', earlierFiles: 1 }, fileLines }, 's1');
  assert.ok(joined.ok);
  assert.deepEqual(joined.meta.fileLines, fileLines);
});

test('session.json: the first thing wrong is named', () => {
  const cases: [unknown, RegExp][] = [
    [null, /session\.json is null, not an object/],
    [[], /session\.json is a list, not an object/],
    [{}, /session\.json\.info is missing, not an object/],
    [{ info: { ...INFO, id: 7 } }, /session\.json\.info\.id is number 7, not a text/],
    [{ info: { ...INFO, kind: 'ssh' } }, /info\.kind is the text "ssh", not one of launch, tail/],
    [{ info: { ...INFO, startedAt: 'yesterday' } }, /info\.startedAt is the text "yesterday", not a number/],
    [{ info: { ...INFO, status: undefined } }, /info\.status is missing/],
    [{ info: { ...INFO, requestCount: -1 } }, /info\.requestCount is number -1, not a count/],
    [
      { info: { ...INFO, exit: { code: 'x', signal: null } } },
      /info\.exit\.code is the text "x", not a whole number or null/,
    ],
    [
      { info: INFO, launch: { argv: 'vllm serve', cwd: '/' } },
      /session\.json\.launch\.argv is the text "vllm serve", not a list of texts/,
    ],
    [{ info: INFO, tail: { path: '/x' } }, /session\.json\.tail\.fromStart is missing, not true or false/],
    [{ info: INFO, launch: { argv: [], cwd: '/', env: { A: 1 } } }, /launch\.env is an object, not a map of texts/],
    [{ info: { ...INFO, logSpan: '10-19' } }, /info\.logSpan is the text "10-19", not an object or null/],
    [{ info: { ...INFO, logSpan: { first: '10-19 07:12:04' } } }, /info\.logSpan\.last is missing, not a text/],
    [{ info: { ...INFO, importOrdinal: 1.5 } }, /info\.importOrdinal is number 1\.5, not a count/],
    [{ info: { ...INFO, stageRoles: { '0': 1 } } }, /info\.stageRoles is an object, not a map of texts/],
    [{ info: INFO, inputDamage: 'cut' }, /session\.json\.inputDamage is the text "cut", not an object/],
    [
      { info: INFO, inputDamage: { stream: 'file', message: 'cut', gzipDamaged: { logBytes: -1 } } },
      /inputDamage\.gzipDamaged\.logBytes is number -1, not a count/,
    ],
    [
      { info: INFO, inputDamage: { stream: 'tty', message: 'cut', gzipDamaged: { logBytes: 1 } } },
      /inputDamage\.stream is the text "tty", not one of stdout, stderr, file/,
    ],
    [
      { info: INFO, inputDamage: { stream: 'file', message: 'cut', gzipDamaged: { logBytes: 1 }, input: 'log' } },
      /inputDamage\.input is the text "log", not one of scrape/,
    ],
    [{ info: INFO, fileLines: { file: 'a' } }, /session\.json\.fileLines is an object, not a list/],
    [
      { info: INFO, fileLines: ['server.log'] },
      /session\.json\.fileLines\[0\] is the text "server\.log", not an object/,
    ],
    [
      {
        info: INFO,
        fileLines: [
          { file: 'a', firstLine: 1, lines: 2 },
          { file: 'b', firstLine: 2.5, lines: 1 },
        ],
      },
      /session\.json\.fileLines\[1\]\.firstLine is number 2\.5, not a count/,
    ],
  ];
  for (const [raw, expected] of cases) {
    const checked = checkSessionMeta(raw, 's1');
    assert.equal(checked.ok, false, JSON.stringify(raw));
    if (!checked.ok) assert.match(checked.problem, expected);
  }
  const torn = parseSessionMeta('{"info": {"id": "s1", "ki', 's1');
  assert.ok(!torn.ok && /session\.json is not JSON/.test(torn.problem));
});

test("session.json: the id must be the folder's name in storage, any name elsewhere", () => {
  const other = checkSessionMeta({ info: INFO }, 'import-copy');
  assert.ok(!other.ok && other.problem === 'session.json names the session "s1", but its folder is "import-copy"');
  assert.ok(checkSessionMeta({ info: INFO }, null).ok);
});

function tmpStorage(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-stored-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function write(storage: string, chunks: [ChunkStream, string, number][]): SessionFiles {
  const files = new SessionFiles(storage, 's1');
  files.writeMeta({ info: INFO as never });
  for (const [stream, text, capturedAt] of chunks) files.append({ stream, bytes: Buffer.from(text), capturedAt });
  files.close();
  return files;
}

async function readAll(
  files: SessionFiles,
  final = true,
): Promise<{ chunks: [ChunkStream, string, number][]; problems: string[] }> {
  const reader = files.chunkReader(INFO.startedAt);
  const chunks: StoredChunk[] = [];
  for await (const c of reader.read(final)) chunks.push(c);
  return { chunks: chunks.map((c) => [c.stream, c.bytes.toString(), c.capturedAt]), problems: reader.problems };
}

const CHUNKS: [ChunkStream, string, number][] = [
  ['stdout', 'out one\n', 2000],
  ['stderr', 'err one\n', 2100],
  ['stdout', 'out two\n', 2200],
  ['stdout', 'out three\n', 2300],
  ['stderr', 'err two\n', 2400],
  ['stdout', 'out four\n', 2500],
];

test('chunks come back in capture order with their capture times', async (t) => {
  const files = write(tmpStorage(t), CHUNKS);
  assert.deepEqual(await readAll(files), { chunks: CHUNKS, problems: [] });
});

test('a torn last index line and bytes without one: read with the last known time', async (t) => {
  const files = write(tmpStorage(t), CHUNKS);
  fs.appendFileSync(path.join(files.dir, 'stdout.log'), 'out five\n');
  fs.appendFileSync(path.join(files.dir, 'chunks.idx'), 'stdout 9 26');
  const { chunks, problems } = await readAll(files);
  assert.deepEqual(chunks, [...CHUNKS, ['stdout', 'out five\n', 2500]]);
  assert.deepEqual(problems, []);
});

test('a corrupt index line in the middle: what it stood for keeps the time before it, everything after it is read as stored', async (t) => {
  const files = write(tmpStorage(t), CHUNKS);
  const idx = path.join(files.dir, 'chunks.idx');
  const lines = fs.readFileSync(idx, 'utf8').split('\n');
  lines[2] = 'stdout 8x 2200';
  fs.writeFileSync(idx, lines.join('\n'));
  const { chunks, problems } = await readAll(files);
  assert.deepEqual(chunks, [CHUNKS[0], CHUNKS[1], ['stdout', 'out two\n', 2100], CHUNKS[3], CHUNKS[4], CHUNKS[5]]);
  assert.deepEqual(problems, [
    'chunks.idx line 3 is not a chunk entry ("stdout 8x 2200"): the bytes it stood for are read with the capture time before it, everything after it as stored',
  ]);
  // Two bad lines in a row, of two streams, one of them unreadable as a stream.
  lines[1] = '\u0000\u0000\u0000';
  fs.writeFileSync(idx, lines.join('\n'));
  const twice = await readAll(files);
  assert.equal(
    twice.chunks
      .filter((c) => c[0] === 'stdout')
      .map((c) => c[1])
      .join(''),
    'out one\nout two\nout three\nout four\n',
  );
  assert.equal(
    twice.chunks
      .filter((c) => c[0] === 'stderr')
      .map((c) => c[1])
      .join(''),
    'err one\nerr two\n',
  );
  assert.equal(twice.problems.length, 2);
  assert.match(twice.problems[0] ?? '', /chunks\.idx line 2 is not a chunk entry \("\?\?\?"\)/);
});

test('following files still being written: each read gives what was appended; a corrupt line waits for the end', async (t) => {
  const storage = tmpStorage(t);
  const files = write(storage, CHUNKS.slice(0, 2));
  const reader = files.chunkReader(INFO.startedAt);
  const take = async (final: boolean): Promise<string[]> => {
    const out: string[] = [];
    for await (const c of reader.read(final)) out.push(c.bytes.toString());
    return out;
  };
  assert.deepEqual(await take(false), ['out one\n', 'err one\n']);
  assert.deepEqual(await take(false), []);
  // Bytes whose index line is not written yet are not read until it is.
  fs.appendFileSync(path.join(files.dir, 'stdout.log'), 'out two\n');
  assert.deepEqual(await take(false), []);
  fs.appendFileSync(path.join(files.dir, 'chunks.idx'), 'stdout 8 2200\n');
  assert.deepEqual(await take(false), ['out two\n']);
  // A corrupt line: reading stops there while the capture goes on, and resumes at the end.
  fs.appendFileSync(path.join(files.dir, 'stdout.log'), 'out three\nout four\n');
  fs.appendFileSync(path.join(files.dir, 'chunks.idx'), 'garbage\nstdout 9 2500\n');
  assert.deepEqual(await take(false), []);
  assert.equal(reader.problems.length, 1);
  assert.deepEqual(await take(true), ['out three\n', 'out four\n']);
  assert.equal(reader.problems.length, 1, 'the line is reported once');
});

test('prometheus.json: the stored figures pass whole, anything else is refused whole', () => {
  const row = {
    family: 'vllm:time_to_first_token_seconds',
    scope: 'replica',
    stage: '0',
    replica: '1',
    instances: ['h1:8000'],
    count: 12,
    total: 40,
    sum: 0.5,
    p50: 0.04,
    p90: null,
    p99: 0.2,
    openEnded: ['p99'],
    caveat: null,
  };
  const state = {
    url: 'http://127.0.0.1:9090',
    deploymentLabel: 'job',
    deploymentValue: 'tts',
    window: '5m',
    evaluatedAt: 1_700_000_000_000,
    families: ['vllm:time_to_first_token_seconds'],
    instances: ['h1:8000'],
    rows: [row],
    trend: {
      family: 'vllm:e2e_request_latency_seconds',
      stepSeconds: 15,
      times: [1, 2],
      series: [{ stage: '0', replica: '1', perSecond: [0.5, null] }],
    },
    warnings: [],
    lastError: null,
  };
  assert.deepEqual(checkPrometheusState(state), state);
  assert.deepEqual(checkPrometheusState({ ...state, trend: null }), { ...state, trend: null });
  for (const bad of [
    { ...state, rows: [{ ...row, instances: 'h1:8000' }] },
    { ...state, rows: [{ ...row, scope: 'pod' }] },
    { ...state, rows: [{ ...row, openEnded: ['p75'] }] },
    { ...state, rows: [{ ...row, p50: '0.04' }] },
    { ...state, trend: { ...state.trend, series: [{ stage: '0', replica: '1', perSecond: [0.5] }] } },
    { ...state, families: null },
    { rows: [] },
    [],
  ])
    assert.equal(checkPrometheusState(bad), null, JSON.stringify(bad).slice(0, 120));
});
