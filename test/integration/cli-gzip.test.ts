// A gzip-compressed log (logrotate's server.log.1.gz) read by the built CLI as a real child
// process: the same report as the plain log, from a file or stdin, across concatenated members;
// a file cut short gives the requests before the cut and says where it broke (analyze, explain and
// compare name it partial); other compressed formats still get the input-compressed finding.
// --follow of a .gz reads it whole, and says so (and that a --duration given with it does not apply).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { CLI, runCli as cli } from './support/cliProcess';
import { byteSizeText } from '../../server/core/numberText';

const ROOT = path.resolve(__dirname, '..', '..');
const UPSTREAM = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const FIXTURES = fs.readdirSync(UPSTREAM).filter((f) => f.endsWith('.log'));

let dir: string;

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-gzip-'));
});

after(() => {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
});

function text(b: Buffer): string {
  return b.toString('utf8');
}

/** The fixture copied as `<name>` and gzipped beside it as `<name>.gz` (the same name: roles come from it). */
function pair(fixture: string): { plain: string; gz: string } {
  const plain = path.join(dir, fixture);
  fs.copyFileSync(path.join(UPSTREAM, fixture), plain);
  const gz = `${plain}.gz`;
  fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(plain)));
  return { plain, gz };
}

interface Json {
  requests: { requestId: string }[];
  findings: { code: string; severity: string; message: string }[];
  problems: { line: number; message: string }[];
}

test('every upstream-rendered fixture, gzipped: analyze and explain give exactly the plain log JSON', () => {
  assert.ok(FIXTURES.length >= 4, FIXTURES.join());
  for (const fixture of FIXTURES) {
    const { plain, gz } = pair(fixture);
    const want = cli(['analyze', plain, '--format', 'json']);
    const got = cli(['analyze', gz, '--format', 'json']);
    assert.equal(got.status, 0, got.stderr);
    assert.equal(got.stderr, '');
    assert.ok((JSON.parse(want.stdout) as Json).requests.length > 0, fixture);
    assert.equal(got.stdout, want.stdout, fixture);
    // explain's JSON names its source (the path given); the rest is the same.
    const explainWant = JSON.parse(cli(['explain', plain, '--format', 'json']).stdout) as Record<string, unknown>;
    const explained = cli(['explain', gz, '--format', 'json']);
    assert.equal(explained.status, 0, explained.stderr);
    const explainGot = JSON.parse(explained.stdout) as Record<string, unknown>;
    assert.equal(explainGot['source'], gz);
    assert.deepEqual({ ...explainGot, source: plain }, explainWant, fixture);
  }
});

test('the table says the input was gzip; stdin gzip reads as the file does; compare reads a .gz run', () => {
  const { plain, gz } = pair('qwen3-omni-three-stage-transfers.log');
  const table = cli(['analyze', gz]);
  assert.equal(table.status, 0, table.stderr);
  assert.equal(table.stdout.split('\n')[0], `Stage Lens: 3 requests, 3 stages from ${gz} (gzip)`);
  const explained = cli(['explain', gz]);
  assert.match(explained.stdout.split('\n')[0] ?? '', / \(gzip\) · 3 requests/);

  const piped = cli(['analyze', '-'], { input: fs.readFileSync(gz) });
  assert.equal(piped.status, 0, piped.stderr);
  assert.equal(piped.stdout.split('\n')[0], 'Stage Lens: 3 requests, 3 stages from stdin (gzip)');
  const pipedJson = cli(['analyze', '-', '--format', 'json'], { input: fs.readFileSync(gz) });
  assert.equal(pipedJson.stdout, cli(['analyze', '-', '--format', 'json'], { input: fs.readFileSync(plain) }).stdout);

  const compared = cli(['compare', plain, gz, '--format', 'json']);
  assert.equal(compared.status, 0, compared.stderr);
  const runs = JSON.parse(compared.stdout) as Record<
    'baseline' | 'candidate',
    { source: string; requestCount: number }
  >;
  assert.deepEqual(
    [runs.baseline, runs.candidate].map((r) => [r.source, r.requestCount]),
    [
      [plain, 3],
      [`${gz} (gzip)`, 3],
    ],
  );
});

test('two concatenated gzip members (cat a.gz b.gz) read as one log', () => {
  const { plain } = pair('qwen3tts-talker-first-audio-after-fix.log');
  const bytes = fs.readFileSync(plain);
  // Cut at a line break in the middle: each member holds whole lines, as two rotations would.
  const cut = bytes.indexOf(0x0a, bytes.length >> 1) + 1;
  const joined = path.join(dir, 'joined-qwen3tts-talker-first-audio-after-fix.log.gz');
  fs.writeFileSync(joined, Buffer.concat([zlib.gzipSync(bytes.subarray(0, cut)), zlib.gzipSync(bytes.subarray(cut))]));
  const got = cli(['analyze', joined, '--format', 'json']);
  assert.equal(got.status, 0, got.stderr);
  const want = cli(['analyze', plain, '--format', 'json']);
  assert.ok((JSON.parse(want.stdout) as Json).requests.length > 1);
  assert.equal(got.stdout, want.stdout);
});

test('a gzip file cut in the middle: the requests before the cut, and where the data ends; exit 0', () => {
  const sim = spawnSync(
    process.execPath,
    [
      CLI,
      'simulate',
      '--debug-tables',
      '--requests',
      '40',
      '--speed',
      '200',
      '--seed',
      '1',
      '--port',
      '0',
      '--fixed-clock',
    ],
    { timeout: 60_000, maxBuffer: 64 << 20 },
  );
  assert.equal(sim.status, 0, text(sim.stderr));
  const whole = zlib.gzipSync(sim.stdout);
  const cutFile = path.join(dir, 'server.log.1.gz');
  fs.writeFileSync(cutFile, whole.subarray(0, whole.length >> 1));
  // What a streaming gunzip gives of the cut file: the log the report must cover.
  const prefix = zlib.gunzipSync(whole.subarray(0, whole.length >> 1), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  assert.ok(prefix.length > 0 && prefix.length < sim.stdout.length);
  const wantIds = (
    JSON.parse(cli(['analyze', '-', '--format', 'json'], { input: prefix }).stdout) as Json
  ).requests.map((r) => r.requestId);
  const allIds = (JSON.parse(cli(['analyze', '-', '--format', 'json'], { input: sim.stdout }).stdout) as Json).requests;
  assert.ok(wantIds.length > 5 && wantIds.length < allIds.length, `${wantIds.length} of ${allIds.length}`);

  const size = byteSizeText(prefix.length);
  const sizePattern = size.replace('.', '\\.');
  const json = cli(['analyze', cutFile, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(
    json.stderr,
    `stage-lens analyze: the gzip data ends after ${size} of log: unexpected end of file; the report covers the log before it, the rest of ${cutFile} was not read\n`,
  );
  const report = JSON.parse(json.stdout) as Json;
  assert.deepEqual(
    report.requests.map((r) => r.requestId),
    wantIds,
  );
  const damaged = report.findings.find((f) => f.code === 'input-gzip-damaged');
  assert.equal(damaged?.severity, 'warning');
  assert.match(
    damaged?.message ?? '',
    new RegExp(
      `^The gzip data ends after ${sizePattern} of log: unexpected end of file .*: the ${wantIds.length} requests before it are read; the rest of the file is not`,
    ),
  );
  const table = cli(['analyze', cutFile]);
  assert.equal(table.status, 0);
  assert.match(
    table.stdout,
    // Where the numbers are read: the header says they are of part of the log.
    new RegExp(
      `^Stage Lens: ${wantIds.length} requests, .* from .*server\\.log\\.1\\.gz \\(gzip\\), partial: gzip data cut after ${sizePattern}\\n`,
    ),
  );
  assert.match(table.stdout, /\[warning\] input-gzip-damaged: The gzip data ends after /);
  const explained = cli(['explain', cutFile]);
  assert.equal(explained.status, 0, explained.stderr);
  assert.match(
    explained.stderr,
    new RegExp(`^stage-lens explain: the gzip data ends after ${sizePattern} of log: unexpected end of file`),
  );
  assert.match(
    explained.stdout,
    new RegExp(
      `^Stage Lens explain: .*server\\.log\\.1\\.gz \\(gzip\\), partial: gzip data cut after ${sizePattern} · `,
    ),
  );

  // compare names the cut run as analyze's header does, in the table and Markdown; JSON says how much was read.
  const plainLog = path.join(dir, 'server.log');
  fs.writeFileSync(plainLog, sim.stdout);
  const partialName = `${cutFile} (gzip), partial: gzip data cut after ${size}`;
  const compared = cli(['compare', plainLog, cutFile]);
  assert.equal(compared.status, 0, compared.stderr);
  const runLines = compared.stdout.split('\n');
  assert.equal(runLines[1], `  baseline   ${plainLog} · log · ${allIds.length} requests, 1 cold`);
  assert.equal(runLines[2], `  candidate  ${partialName} · log · ${wantIds.length} requests, 1 cold`);
  const markdown = cli(['compare', plainLog, cutFile, '--format', 'markdown']);
  assert.equal(markdown.status, 0, markdown.stderr);
  assert.ok(markdown.stdout.includes(`**Candidate:** ${partialName} · log · `), markdown.stdout);
  const comparedJson = cli(['compare', cutFile, plainLog, '--format', 'json']);
  assert.equal(comparedJson.status, 0, comparedJson.stderr);
  const runs = JSON.parse(comparedJson.stdout) as Record<'baseline' | 'candidate', Record<string, unknown>>;
  // The name stays the input's (a key a script matches on); the cut is a field of its own.
  assert.equal(runs.baseline.source, `${cutFile} (gzip)`);
  assert.equal(runs.baseline.partialLogBytes, prefix.length);
  assert.equal('partialLogBytes' in runs.candidate, false);

  // Cut inside the gzip header: nothing was read, which is exit 2, never a stack trace.
  const header = path.join(dir, 'header-only.log.gz');
  fs.writeFileSync(header, whole.subarray(0, 6));
  const none = cli(['analyze', header]);
  assert.equal(none.status, 2);
  assert.equal(
    none.stderr,
    `stage-lens analyze: nothing in ${header} was read: the gzip data ends after 0 bytes of log: unexpected end of file\n`,
  );
  assert.match(none.stdout, /\[error\] input-gzip-damaged: The gzip data ends after 0 bytes of log/);
  assert.doesNotMatch(none.stdout + none.stderr, /\n\s+at /);
});

test('a gzip /metrics scrape cut in the middle: its header says partial, as a cut log does, and stderr says it of the scrape', () => {
  const scrape = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'scrapes', 'qwen3-tts-codec-replicas.prom'));
  const whole = zlib.gzipSync(scrape);
  const cut = whole.subarray(0, whole.length >> 1);
  const cutFile = path.join(dir, 'metrics.prom.gz');
  fs.writeFileSync(cutFile, cut);
  // What a streaming gunzip gives of the cut file: the part of the scrape read.
  const prefix = zlib.gunzipSync(cut, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  assert.ok(prefix.length > 0 && prefix.length < scrape.length);
  const size = byteSizeText(prefix.length);
  const table = cli(['analyze', cutFile]);
  assert.equal(table.status, 0, table.stderr);
  assert.equal(
    table.stdout.split('\n')[0]?.replace(/: \d+ histogram series$/, ''),
    `Stage Lens: /metrics scrape from ${cutFile} (gzip), partial: gzip data cut after ${size}`,
  );
  // Not "the log before it": a scrape's report covers its series before the break.
  const cutNote = (command: string, name: string): string =>
    `stage-lens ${command}: the gzip data ends after ${size} of the /metrics scrape: unexpected end of file; the report covers the series before it, the rest of ${name} was not read\n`;
  assert.equal(table.stderr, cutNote('analyze', cutFile));
  const json = cli(['analyze', cutFile, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(json.stderr, cutNote('analyze', cutFile));
  const explained = cli(['explain', cutFile]);
  assert.equal(explained.status, 0, explained.stderr);
  assert.equal(explained.stderr, cutNote('explain', cutFile));
  assert.equal(
    explained.stdout.split('\n')[0],
    `Stage Lens explain: /metrics scrape from ${cutFile} (gzip), partial: gzip data cut after ${size}: no per-request values, so no tail to explain.`,
  );
  const piped = cli(['explain', '-', '--format', 'json'], { input: cut });
  assert.equal(piped.status, 0, piped.stderr);
  assert.equal(piped.stderr, cutNote('explain', 'stdin'));
  // The whole scrape gzipped: the header says gzip only.
  const wholeFile = path.join(dir, 'metrics-whole.prom.gz');
  fs.writeFileSync(wholeFile, whole);
  assert.match(
    cli(['analyze', wholeFile]).stdout,
    /^Stage Lens: \/metrics scrape from \S+metrics-whole\.prom\.gz \(gzip\): \d+ histogram series\n/,
  );
});

test('a gzip /metrics scrape cut in the middle: its JSON (analyze and explain) has the finding that says so, as its table does', () => {
  const scrape = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'scrapes', 'qwen3-tts-codec-replicas.prom'));
  const whole = zlib.gzipSync(scrape);
  const cut = whole.subarray(0, whole.length >> 1);
  const cutFile = path.join(dir, 'metrics-json.prom.gz');
  fs.writeFileSync(cutFile, cut);
  const size = byteSizeText(zlib.gunzipSync(cut, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).length);
  const want = {
    code: 'input-gzip-damaged',
    severity: 'warning',
    message: `The gzip data ends after ${size} of the /metrics scrape: unexpected end of file (a .gz file cut short, or damaged): the series before it are read; the rest of the file is not. \`gzip -t\` tests the file; \`zcat\` prints what it can of it.`,
  };
  const damagedOf = (stdout: string): unknown[] =>
    (JSON.parse(stdout) as Json).findings
      .filter((f) => f.code === 'input-gzip-damaged')
      .map(({ code, severity, message }) => ({ code, severity, message }));
  const analyzed = cli(['analyze', cutFile, '--format', 'json']);
  assert.equal(analyzed.status, 0, analyzed.stderr);
  const json = JSON.parse(analyzed.stdout) as Json & { histograms: unknown[] };
  assert.ok(json.histograms.length > 0);
  assert.deepEqual(damagedOf(analyzed.stdout), [want]);
  // The table lists the same finding, in the same words, under its partial header.
  const table = cli(['analyze', cutFile]);
  assert.equal(table.status, 0, table.stderr);
  assert.ok(table.stdout.includes(`  [warning] input-gzip-damaged: ${want.message}\n`), table.stdout);
  const explained = cli(['explain', cutFile, '--format', 'json']);
  assert.equal(explained.status, 0, explained.stderr);
  assert.deepEqual(damagedOf(explained.stdout), [want]);
  // The whole scrape: no such finding.
  const wholeFile = path.join(dir, 'metrics-json-whole.prom.gz');
  fs.writeFileSync(wholeFile, whole);
  assert.deepEqual(damagedOf(cli(['analyze', wholeFile, '--format', 'json']).stdout), []);
  assert.deepEqual(damagedOf(cli(['explain', wholeFile, '--format', 'json']).stdout), []);
});

test('--follow of a .gz reads it whole and says it is not followed, nor --duration applied: a rotated log does not grow', () => {
  const { gz } = pair(FIXTURES[0]!);
  const whole = cli(['analyze', gz]);
  assert.equal(whole.status, 0, whole.stderr);
  const followed = spawnSync(process.execPath, [CLI, 'analyze', '--follow', gz], {
    timeout: 20_000,
    cwd: ROOT,
    maxBuffer: 64 << 20,
  });
  // Ends by itself, with the report analyze prints of the whole file.
  assert.equal(followed.status, 0, text(followed.stderr));
  assert.equal(text(followed.stdout), whole.stdout);
  assert.match(text(followed.stdout), /^Stage Lens: [1-9]\d* requests?, /);
  assert.equal(
    text(followed.stderr),
    `stage-lens analyze: ${gz} is gzip-compressed, a rotated log that no longer grows: read whole (as without --follow), not followed; to watch a server's log grow, follow the file it writes now\n`,
  );
  // --duration ends a followed log: with a .gz read whole it does nothing, and the note says so.
  const timed = cli(['analyze', '--follow', gz, '--duration', '5']);
  assert.equal(timed.status, 0, timed.stderr);
  assert.equal(timed.stdout, whole.stdout);
  assert.equal(
    timed.stderr,
    `stage-lens analyze: ${gz} is gzip-compressed, a rotated log that no longer grows: read whole (as without --follow), not followed, and --duration 5 does not apply (the read ends at the file's end); to watch a server's log grow, follow the file it writes now\n`,
  );
  // A --duration that is no time is still a usage error, whatever the file.
  const bad = cli(['analyze', '--follow', gz, '--duration', 'soon']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, 'stage-lens analyze: --duration must be a positive number of seconds\n');
});

test('a gzip of an empty log is empty, as an empty file is', () => {
  const empty = path.join(dir, 'empty.log.gz');
  fs.writeFileSync(empty, zlib.gzipSync(Buffer.alloc(0)));
  const r = cli(['analyze', empty]);
  assert.equal(r.status, 2);
  assert.equal(r.stderr, `stage-lens analyze: nothing in ${empty} was read: it is empty (0 bytes)\n`);
  assert.match(r.stdout, /The input is empty \(0 bytes\)/);
});

test('zstd (no decoder in Node) keeps the input-compressed finding and its advice', () => {
  const zst = path.join(dir, 'server.log.1.zst');
  fs.writeFileSync(zst, Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(64, 7)]));
  const r = cli(['analyze', zst]);
  assert.equal(r.status, 2);
  assert.equal(
    r.stderr,
    `stage-lens analyze: nothing in ${zst} was read: the input is zstd-compressed, not a text log: decompress it first (zstdcat)\n`,
  );
  assert.match(
    r.stdout,
    /\[error\] input-compressed: The input is zstd-compressed .*`zstdcat server\.log\.1\.zst \| stage-lens analyze -`/,
  );
});
