// `stage-lens compare` as a CI job runs it: the built dist/cli.js as a real child process
// on logs written by the simulator (a build before the codec stats fix vs one with it,
// and a light vs a heavy load), checking the report and the exit codes 0 / 1 / 2.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
let dir = '';
const log = (name: string): string => path.join(dir, name);

/** A qwen3-tts simulator run of 60 requests with DEBUG stage tables, written to a file. */
function simulate(file: string, statsBuild: string, rps: number): void {
  const r = cli([
    'simulate',
    '--scenario',
    'qwen3-tts',
    '--talker-first-audio',
    '--stats-build',
    statsBuild,
    '--requests',
    '60',
    '--seed',
    '1',
    '--rps',
    String(rps),
    '--speed',
    '1000',
    '--fixed-clock',
    '--debug-tables',
    '--port',
    '0',
  ]);
  assert.equal(r.status, 0, r.stderr);
  fs.writeFileSync(file, r.stdout);
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-cli-compare-'));
  simulate(log('before-fix.log'), 'before-fix', 5);
  simulate(log('fixed.log'), 'fixed', 5);
  simulate(log('fixed-heavy.log'), 'fixed', 60);
});

after(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

interface Json {
  schema: number;
  baseline: { requestCount: number; kind: string };
  metrics: {
    scope: string;
    metric: string;
    status: string;
    baseline: { measured: number; unknown: Record<string, number> };
    candidate: { measured: number };
    quantiles: {
      quantile: string;
      diffMs: number;
      beyondNoise: boolean | null;
      ci: { low: number; high: number } | null;
    }[];
  }[];
  findings: {
    code: string;
    stageId: number | null;
    change: string;
    baselineRequests: number;
    candidateRequests: number;
  }[];
  rules: { rule: string; outcome: string; failed: boolean }[];
  failed: boolean;
}

test('before the codec stats fix vs after: ttft-not-recorded disappears, stage 1 TTFT becomes measured (not a difference)', () => {
  const table = cli(['compare', log('before-fix.log'), log('fixed.log')]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /baseline +.*before-fix\.log · log · 60 requests/);
  assert.match(
    table.stdout,
    /disappeared +\[warning\] ttft-not-recorded \(stage 1\): 60 requests in the baseline, none in the candidate/,
  );
  assert.match(
    table.stdout,
    /stage 1 · code2wav TTFT: measured in the candidate only \(baseline: none of 60 measured: 60 not recorded\)/,
  );

  const r = cli(['compare', log('before-fix.log'), log('fixed.log'), '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as Json;
  assert.equal(json.schema, 1);
  assert.equal(json.baseline.requestCount, 60);
  const gone = json.findings.find((f) => f.code === 'ttft-not-recorded');
  assert.deepEqual(
    gone && {
      change: gone.change,
      stageId: gone.stageId,
      baselineRequests: gone.baselineRequests,
      candidateRequests: gone.candidateRequests,
    },
    { change: 'disappeared', stageId: 1, baselineRequests: 60, candidateRequests: 0 },
  );
  const ttft = json.metrics.find((m) => m.scope === '1' && m.metric === 'ttft');
  assert.equal(ttft?.status, 'candidateOnly');
  assert.equal(ttft?.baseline.measured, 0);
  assert.equal(ttft?.baseline.unknown['notRecorded'], 60);
  assert.equal(ttft?.candidate.measured, 60);
  assert.deepEqual(ttft?.quantiles, [], 'no difference against a value that was never recorded');
  // Same seed, same load: the talker's numbers are identical in both runs, and not beyond noise.
  // The talker emits one output (Model Runner V2 + async chunk): its prefill is compared as prefill+decode.
  const talker = json.metrics.find((m) => m.scope === '0' && m.metric === 'prefillDecode');
  assert.equal(talker?.status, 'compared');
  assert.equal(talker?.quantiles.length, 3);
  assert.ok(talker?.quantiles.every((q) => q.diffMs === 0 && q.beyondNoise === false));
  const prefill = json.metrics.find((m) => m.scope === '0' && m.metric === 'prefill');
  assert.equal(prefill?.status, 'neither');
  assert.equal(prefill?.baseline.unknown['oneOutput'], 60);
  assert.match(table.stdout, /^0 · talker +prefill\+decode \(one output\) +60\/60 +p50 /m);
});

test('--fail-if: a rule crossed beyond noise exits 1 and names the rule; rules that hold exit 0', () => {
  const heavy = cli([
    'compare',
    log('fixed.log'),
    log('fixed-heavy.log'),
    '--fail-if',
    'stage1.queued.p90 > +10%',
    '--fail-if',
    'stage0.prefillDecode.p50 > +50%; request.e2e.p99 > 60s',
  ]);
  assert.equal(heavy.status, 1, heavy.stderr);
  assert.match(
    heavy.stderr,
    /1 of 3 rules failed:\n +FAIL CROSSED +stage1\.queued\.p90 > \+10%: stage 1 · code2wav queued p90 [\d.,]+ ms → [\d.,]+ ms \(\+[\d.,]+ ms, \+[\d.]+%; rule > \+10%\); beyond noise, CI \[\+/,
  );
  assert.doesNotMatch(heavy.stderr, /stage0\.prefillDecode/);
  const json = JSON.parse(
    cli([
      'compare',
      log('fixed.log'),
      log('fixed-heavy.log'),
      '--format',
      'json',
      '--fail-if',
      'stage1.queued.p90 > +10%',
    ]).stdout,
  ) as Json;
  assert.equal(json.failed, true);
  assert.deepEqual(
    json.rules.map((x) => [x.outcome, x.failed]),
    [['crossed', true]],
  );
  const p90 = json.metrics
    .find((m) => m.scope === '1' && m.metric === 'queued')
    ?.quantiles.find((q) => q.quantile === 'p90');
  assert.ok(p90 && p90.beyondNoise === true && (p90.ci?.low ?? 0) > 0);

  const holds = cli(['compare', log('fixed.log'), log('fixed-heavy.log'), '--fail-if', 'stage1.queued.p90 > +500%']);
  assert.equal(holds.status, 0, holds.stderr);
  assert.match(holds.stdout, /Rules \(--fail-if\)\n +ok +stage1\.queued\.p90 > \+500%/);

  // A limit on the candidate's own value needs no baseline.
  const limit = cli(['compare', log('before-fix.log'), log('fixed.log'), '--fail-if', 'stage1.ttft.p50 > 1ms']);
  assert.equal(limit.status, 1);
  assert.match(limit.stderr, /stage1\.ttft\.p50 > 1ms: stage 1 · code2wav TTFT p50 is [\d.,]+ ms in the candidate/);
});

test('a change rule on a metric measured in one run only is not evaluated: exit 0, or 1 with --fail-unevaluated', () => {
  const r = cli(['compare', log('before-fix.log'), log('fixed.log'), '--fail-if', 'stage1.ttft.p90 > +10%']);
  assert.equal(r.status, 0);
  assert.match(
    r.stderr,
    /1 rule not evaluated.*\n {7}not evaluated stage1\.ttft\.p90 > \+10%: stage 1 · code2wav TTFT p90 was measured in the candidate only/,
  );
  assert.equal(
    cli([
      'compare',
      log('before-fix.log'),
      log('fixed.log'),
      '--fail-if',
      'stage1.ttft.p90 > +10%',
      '--fail-unevaluated',
    ]).status,
    1,
  );
});

test('a metric the candidate lost fails the gate (exit 1); a stage neither run has is a usage error (exit 2)', () => {
  // The fix reverted: stage 1 TTFT measured in the baseline, not recorded in the candidate.
  const lost = cli(['compare', log('fixed.log'), log('before-fix.log'), '--fail-if', 'stage1.ttft.p90 > +10%']);
  assert.equal(lost.status, 1, lost.stderr);
  assert.match(
    lost.stderr,
    /1 of 1 rule failed:\n {2}FAIL NOT MEASURED {2}stage1\.ttft\.p90 > \+10%: stage 1 · code2wav TTFT p90 was measured in the baseline \(60 values\) and not in the candidate \(none of 60 measured: 60 not recorded\): the candidate lost a measurement/,
  );
  const json = JSON.parse(
    cli(['compare', log('fixed.log'), log('before-fix.log'), '--format', 'json', '--fail-if', 'stage1.ttft.p90 > 5s'])
      .stdout,
  ) as Json;
  assert.deepEqual(
    json.rules.map((r) => [r.outcome, r.failed]),
    [['unmeasured', true]],
  );
  assert.equal(json.failed, true);

  const typo = cli(['compare', log('before-fix.log'), log('fixed.log'), '--fail-if', 'stage5.ttft.p50 > 1ms']);
  assert.equal(typo.status, 2);
  assert.equal(typo.stdout, '');
  assert.equal(
    typo.stderr,
    "stage-lens compare: --fail-if 'stage5.ttft.p50 > 1ms': neither run has stage 5; the runs have stage 0 · talker, stage 1 · code2wav and request\n",
  );

  // Decode and prefill of the one-output talker: a usage error naming prefillDecode (as a gate
  // that is never evaluated, it would pass forever), no report.
  const folded = cli(['compare', log('before-fix.log'), log('fixed.log'), '--fail-if', 'stage0.decode.p50 > 1ms']);
  assert.equal(folded.status, 2, folded.stderr);
  assert.equal(folded.stdout, '');
  assert.match(
    folded.stderr,
    /^stage-lens compare: --fail-if 'stage0\.decode\.p50 > 1ms': stage 0 · talker emitted one output per request in the candidate \(\d+ request-stages\), so it has no decode there: its vllm_prefill_ms covers the decode steps \(one output\): write stage0\.prefillDecode\.p50\n$/,
  );
  const prefill = cli(['compare', log('before-fix.log'), log('fixed.log'), '--fail-if', 'stage0.prefill.p50 > +5%']);
  assert.equal(prefill.status, 2, prefill.stderr);
  assert.match(
    prefill.stderr,
    /stage 0 · talker emitted one output per request in the baseline and the candidate \(\d+ request-stages\), so it has no prefill there: .*write stage0\.prefillDecode\.p50\n$/,
  );
  // The same figure as prefill+decode is evaluated.
  assert.equal(
    cli(['compare', log('before-fix.log'), log('fixed.log'), '--fail-if', 'stage0.prefillDecode.p50 > +1000%']).status,
    0,
  );
});

test('a malformed rule exits 2 and points at the problem, before reading any input', () => {
  const r = cli(['compare', log('before-fix.log'), log('fixed.log'), '--fail-if', 'stage1.ttft.p95 > +10%']);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /malformed rule 'stage1\.ttft\.p95 > \+10%': unknown quantile 'p95': use p50, p90 or p99\n {4}stage1\.ttft\.p95 > \+10%\n {4} {12}\^\^\^\n/,
  );
  assert.match(r.stderr, /Rule grammar:/);
  const sign = cli(['compare', 'a', 'b', '--fail-if', 'stage1.ttft.p90 > 10%']);
  assert.equal(sign.status, 2);
  assert.match(sign.stderr, /needs a sign/);
});

test('usage and input errors exit 2 with a message; Markdown for a pull-request comment', () => {
  const missing = cli(['compare', log('before-fix.log'), log('nope.log')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read .*nope\.log: no such file or folder/);
  assert.equal(cli(['compare', log('fixed.log')]).status, 2);
  assert.match(
    cli(['compare', log('fixed.log'), log('fixed.log'), '--format', 'html']).stderr,
    /--format must be table, json or markdown/,
  );
  const help = cli(['compare', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /quantile  = p50 \| p90 \| p99/);

  const md = cli([
    'compare',
    log('before-fix.log'),
    log('fixed.log'),
    '--format',
    'markdown',
    '--fail-if',
    'stage1.ttft.p50 > 1ms',
  ]);
  assert.equal(md.status, 1);
  assert.match(md.stdout, /^### Stage Lens: compare\n/);
  assert.match(md.stdout, /\*\*Rules:\*\* ❌ 1 of 1 failed/);
  assert.match(
    md.stdout,
    /✔️ disappeared: ttft-not-recorded \(stage 1\): 60 requests in the baseline, none in the candidate/,
  );
  assert.match(md.stdout, /\| stage 1 · code2wav \| TTFT \| 0\/60 \| measured in the candidate only/);
});

test('not two inputs, or one that cannot be read: exit 2, nothing on stdout, one line on stderr naming what was given and why', () => {
  const fixed = log('fixed.log');
  const help = "\n\nRun 'stage-lens compare --help' for the options and the rule grammar.\n";
  const counts: [string[], string, string | undefined][] = [
    [[fixed], `got 1 (${fixed}): give the candidate run too (a log, a /metrics scrape or a session folder)`, undefined],
    [['-'], 'got 1 (stdin): give the candidate run too (a log, a /metrics scrape or a session folder)', 'x'],
    [[], 'got 0: give the baseline run and the candidate run', undefined],
    [
      [fixed, fixed, fixed],
      `got 3 (${fixed}, ${fixed}, ${fixed}): give exactly two, or each run's files on either side of 'vs' (a log and its rotations: before/server.log* vs after/server.log*)`,
      undefined,
    ],
  ];
  for (const [inputs, why, input] of counts) {
    const r = cli(['compare', ...inputs], input === undefined ? {} : { input });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `stage-lens compare: expected two inputs, <baseline> <candidate>, ${why}${help}`);
  }
  // One readable, one not: which one and why, whichever side it is on, read in workers or not.
  const folder = fs.mkdtempSync(path.join(dir, 'no-session-'));
  const unreadable: [string, string][] = [
    [log('nope.log'), `cannot read ${log('nope.log')}: no such file or folder`],
    [
      folder,
      `${folder} is a folder without a session.json: give a log file, a /metrics scrape, or a saved session folder`,
    ],
  ];
  for (const [input, why] of unreadable)
    for (const args of [
      [fixed, input],
      [input, fixed],
    ])
      for (const workers of ['0', '1']) {
        const r = cli(['compare', ...args], { env: { ...process.env, STAGE_LENS_COMPARE_WORKERS: workers } });
        assert.equal(r.status, 2, r.stderr);
        assert.equal(r.stdout, '');
        assert.equal(r.stderr, `stage-lens compare: ${why}\n`);
      }
});

test('a run that holds nothing (an empty log, a zstd file, binary data) fails the gate: exit 2, which run and why, no report', () => {
  const empty = log('empty.log');
  fs.writeFileSync(empty, '');
  // zstd's magic number: Node has no decoder for it (a gzip run is read: cli-gzip.test.ts).
  const zst = log('old.log.1.zst');
  fs.writeFileSync(zst, Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(200, 5)]));
  const junk = log('junk.bin');
  const bytes = Buffer.alloc(200_000);
  for (let i = 0, x = 1; i < bytes.length; i++) bytes[i] = (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) >>> 24;
  fs.writeFileSync(junk, bytes);
  const rules = ['--fail-if', 'request.e2e.p90 > +10%', '--fail-if', 'stage1.firstOutput.p50 > 500ms'];
  const why: Record<string, RegExp> = {
    [empty]: /holds nothing to compare: 0 requests read: no request stats in it/,
    [zst]: /holds nothing to compare: The input is zstd-compressed .*zstdcat/,
    [junk]: /holds nothing to compare: The input is binary data/,
  };
  for (const [input, reason] of Object.entries(why)) {
    for (const [args, name] of [
      [[log('fixed.log'), input], 'candidate'],
      [[input, log('fixed.log')], 'baseline'],
    ] as const) {
      for (const workers of ['0', '1']) {
        const r = cli(['compare', ...args, ...rules], { env: { ...process.env, STAGE_LENS_COMPARE_WORKERS: workers } });
        assert.equal(r.status, 2, `${name} ${input}: ${r.stderr}`);
        assert.equal(r.stdout, '');
        const lines = r.stderr.trimEnd().split('\n');
        assert.equal(lines.length, 1, r.stderr);
        assert.ok(lines[0]?.startsWith(`stage-lens compare: the ${name} (${input}) holds nothing`), r.stderr);
        assert.match(r.stderr, reason);
      }
    }
  }
  // Both: each is said.
  const both = cli(['compare', empty, junk]);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /the baseline .*empty\.log.*\n.*the candidate .*junk\.bin/);
});

test('the two inputs read in worker threads give exactly the output of a sequential read', () => {
  const args = ['compare', log('fixed.log'), log('fixed-heavy.log'), '--format', 'json'];
  const parallel = cli(args);
  const sequential = cli(args, { env: { ...process.env, STAGE_LENS_COMPARE_WORKERS: '0' } });
  assert.equal(parallel.status, 0, parallel.stderr);
  assert.equal(parallel.stdout, sequential.stdout);
});

test("'-' reads one input from stdin (a real pipe): the same report as from the file; two '-' exit 2", () => {
  const fromFiles = cli(['compare', log('before-fix.log'), log('fixed.log'), '--format', 'json']);
  const piped = spawnSync(process.execPath, [CLI, 'compare', '-', log('fixed.log'), '--format', 'json'], {
    encoding: 'utf8',
    timeout: 120_000,
    cwd: ROOT,
    input: fs.readFileSync(log('before-fix.log')),
  });
  assert.equal(piped.status, 0, piped.stderr);
  const a = JSON.parse(fromFiles.stdout) as { baseline: { source: string } };
  const b = JSON.parse(piped.stdout) as { baseline: { source: string } };
  assert.equal(b.baseline.source, 'stdin');
  assert.equal(a.baseline.source, log('before-fix.log'));
  assert.deepEqual(
    { ...b, baseline: { ...b.baseline, source: '' } },
    { ...a, baseline: { ...a.baseline, source: '' } },
  );

  const table = spawnSync(process.execPath, [CLI, 'compare', log('fixed.log'), '-'], {
    encoding: 'utf8',
    timeout: 120_000,
    cwd: ROOT,
    input: fs.readFileSync(log('fixed-heavy.log')),
  });
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /candidate +.*stdin · log · 60 requests/);

  const both = spawnSync(process.execPath, [CLI, 'compare', '-', '-'], {
    encoding: 'utf8',
    timeout: 30_000,
    cwd: ROOT,
    input: '',
  });
  assert.equal(both.status, 2);
  assert.match(both.stderr, /only one of the two inputs can be '-' \(stdin\)/);
});

test("with '-' and a bad other input, the program exits 2 at once while stdin is still open", async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-no-session-'));
  try {
    const child = spawn(process.execPath, [CLI, 'compare', '-', empty], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.write('a partial line, and stdin stays open');
    const code = await new Promise<number | string>((resolve) => {
      const timer = setTimeout(() => resolve('still running after 10 s'), 10_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c ?? -1);
      });
    });
    child.kill();
    assert.equal(code, 2, stderr);
    assert.match(stderr, /is a folder without a session\.json/);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
});
