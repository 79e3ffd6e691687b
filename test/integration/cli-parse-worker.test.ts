// `analyze` parses a large log file in a worker thread (server/cli/parseInWorker.ts): through the
// built CLI as a real process, its output, stderr and exit status with the worker forced on
// (STAGE_LENS_PARSE_WORKER=1) are those with it off, byte for byte, on a generated log above
// the size the worker is used from and on every log fixture (forced on whatever their size).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildBundles } from './support/buildBundles';
import { assertReadProgressShown } from './support/progressScreen';
import { generateBenchLog } from '../../scripts/bench/generateLog';
import { PARSE_WORKER_MIN_BYTES } from '../../server/cli/parseInWorker';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
let scratch: string;

before(() => {
  buildBundles('cli');
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-parse-worker-'));
});

after(() => fs.rmSync(scratch, { recursive: true, force: true }));

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function analyze(worker: '0' | '1', file: string, args: readonly string[]): Run {
  const { status, stdout, stderr } = spawnSync(process.execPath, [CLI, 'analyze', file, ...args], {
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, STAGE_LENS_PARSE_WORKER: worker },
  });
  return { status, stdout, stderr };
}

/**
 * Whether a run parsed in a worker thread: node's --cpu-prof writes a profile per thread, and
 * the worker's runs the worker bundle. `worker` undefined: the setting left unset (by size).
 */
function parsedInWorker(worker: '0' | '1' | undefined, file: string, format = 'json'): boolean {
  const dir = fs.mkdtempSync(path.join(scratch, 'profiles-'));
  const env = { ...process.env };
  delete env['STAGE_LENS_PARSE_WORKER'];
  if (worker !== undefined) env['STAGE_LENS_PARSE_WORKER'] = worker;
  const run = spawnSync(
    process.execPath,
    ['--cpu-prof', '--cpu-prof-dir', dir, CLI, 'analyze', file, '--format', format],
    {
      encoding: 'utf8',
      timeout: 300_000,
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    },
  );
  assert.equal(run.status, 0, `${run.signal ?? ''} ${run.stderr}`);
  const profiles = fs.readdirSync(dir).map((name) => fs.readFileSync(path.join(dir, name), 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });
  return profiles.length > 1 && profiles.some((profile) => profile.includes('cli-parse-worker.js'));
}

function assertSameWithWorker(file: string, args: readonly string[]): Run {
  const off = analyze('0', file, args);
  const on = analyze('1', file, args);
  const what = `${path.relative(ROOT, file)} ${args.join(' ')}`;
  assert.equal(on.status, off.status, `${what}: exit status`);
  assert.equal(on.stderr, off.stderr, `${what}: stderr`);
  // Compared whole (not by assert.equal's diff of a 100 MB string), then where they part.
  if (on.stdout !== off.stdout) {
    let at = 0;
    while (on.stdout[at] === off.stdout[at]) at++;
    assert.fail(
      `${what}: stdout differs at ${at}: ${JSON.stringify(off.stdout.slice(at, at + 80))} (off) vs ${JSON.stringify(on.stdout.slice(at, at + 80))} (on)`,
    );
  }
  return on;
}

test('a generated log of 24 MB: table, JSON, CSV, trace, a window and a boot alike with the worker on and off', () => {
  const file = path.join(scratch, 'large.log');
  generateBenchLog(file, 24 << 20, 5);
  // Below the size the JSON's automatic choice takes the worker from; at or above it, that choice
  // hangs on the machine's load (parseWorkerWorthIt, test/unit/parse-worker-choice.test.ts).
  assert.ok(fs.statSync(file).size < PARSE_WORKER_MIN_BYTES);
  assert.equal(parsedInWorker(undefined, file), false);
  // For the table only when turned on.
  assert.equal(parsedInWorker('1', file), true);
  assert.equal(parsedInWorker('0', file), false);
  assert.equal(parsedInWorker(undefined, file, 'table'), false);
  assert.equal(parsedInWorker('1', file, 'table'), true);
  const table = assertSameWithWorker(file, []);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens: [\d,]+ requests, /);
  const json = assertSameWithWorker(file, ['--format', 'json']);
  assert.ok((JSON.parse(json.stdout) as { requests: unknown[] }).requests.length > 1000);
  assertSameWithWorker(file, ['--format', 'csv']);
  assertSameWithWorker(file, ['--format', 'trace']);
  assertSameWithWorker(file, ['--format', 'json', '--since', '00:10', '--until', '00:40']);
  assertSameWithWorker(file, ['--boot', '2']);
});

test('every log fixture, the worker forced on: JSON, table and a boot alike; a missing file, gzip and a scrape as without it', () => {
  const logs = [
    ...fs.readdirSync(path.join(ROOT, 'samples')).map((name) => path.join(ROOT, 'samples', name)),
    ...fs
      .readdirSync(path.join(ROOT, 'test', 'fixtures'), { recursive: true, encoding: 'utf8' })
      .map((name) => path.join(ROOT, 'test', 'fixtures', name)),
  ].filter((file) => /\.(log|jsonl)$/.test(file));
  assert.ok(logs.length >= 50, `logs: ${logs.length}`);
  // Below the size, only when forced.
  const sample = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
  assert.equal(parsedInWorker(undefined, sample), false);
  assert.equal(parsedInWorker('1', sample), true);
  for (const file of logs) {
    assertSameWithWorker(file, ['--format', 'json']);
    assertSameWithWorker(file, ['--boot', '2']);
  }
  // What the worker does not read (a missing file, a gzip log, a scrape) is read as without it.
  assertSameWithWorker(path.join(scratch, 'missing.log'), []);
  const log = fs.readFileSync(path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log'));
  const gz = path.join(scratch, 'server.log.1.gz');
  fs.writeFileSync(gz, gzipSync(log));
  assertSameWithWorker(gz, ['--format', 'json']);
  const scrape = fs
    .readdirSync(path.join(ROOT, 'test', 'fixtures'), { recursive: true, encoding: 'utf8' })
    .find((name) => name.endsWith('.prom'));
  assert.ok(scrape !== undefined);
  assertSameWithWorker(path.join(ROOT, 'test', 'fixtures', scrape), []);
});

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

test(
  'on a terminal, a file parsed in the worker shows the read progress and erases it',
  { skip: hasScript ? false : 'needs util-linux script(1) for a pseudo-terminal' },
  () => {
    const sample = fs.readFileSync(path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log'));
    const log = path.join(scratch, 'tty.log');
    fs.writeFileSync(log, Buffer.concat(Array.from({ length: 40 }, () => sample)));
    const out = path.join(scratch, 'tty.json');
    const profiles = fs.mkdtempSync(path.join(scratch, 'tty-profiles-'));
    const command = `${shellQuote(process.execPath)} --cpu-prof --cpu-prof-dir ${shellQuote(profiles)} ${shellQuote(CLI)} analyze ${shellQuote(log)} --format json > ${shellQuote(out)}`;
    const run = spawnSync('script', ['-qfec', command, '/dev/null'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, STAGE_LENS_PROGRESS_DELAY_MS: '0', STAGE_LENS_PARSE_WORKER: '1' },
    });
    assert.equal(run.status, 0, run.stderr);
    // Parsed in the worker (a profile of its thread beside the main thread's).
    const threads = fs.readdirSync(profiles).map((name) => fs.readFileSync(path.join(profiles, name), 'utf8'));
    assert.ok(threads.length > 1 && threads.some((profile) => profile.includes('cli-parse-worker.js')));
    assertReadProgressShown(run.stdout, log);
    const report = JSON.parse(fs.readFileSync(out, 'utf8')) as { requests: unknown[] };
    assert.equal(report.requests.length, 25 * 40);
  },
);
