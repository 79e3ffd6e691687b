// Command lines a user gets wrong or repeats, run as the built dist/cli.js in a child process:
// negative numbers said as the option's own rule (not node's "argument is ambiguous"),
// repeated --quantile / --target as a list each once, targets in any case, --exclude-cold on
// scrapes warned about, and deploy YAMLs no server runs refused by analyze as by simulate.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

let dir = '';
const file = (name: string): string => path.join(dir, name);

const SCRAPE = [
  '# TYPE vllm:e2e_request_latency_seconds histogram',
  'vllm:e2e_request_latency_seconds_bucket{le="1.0",model_name="m",stage="0",replica="0"} 3',
  'vllm:e2e_request_latency_seconds_bucket{le="+Inf",model_name="m",stage="0",replica="0"} 4',
  'vllm:e2e_request_latency_seconds_sum{model_name="m",stage="0",replica="0"} 3.5',
  'vllm:e2e_request_latency_seconds_count{model_name="m",stage="0",replica="0"} 4',
  '',
].join('\n');

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-cli-options-'));
  // A two-stage Qwen3-TTS log (stages 0 and 1) with DEBUG stage tables.
  const sim = cli([
    'simulate',
    '--scenario',
    'qwen3-tts',
    '--requests',
    '30',
    '--seed',
    '1',
    '--speed',
    '1000',
    '--fixed-clock',
    '--debug-tables',
    '--port',
    '0',
  ]);
  assert.equal(sim.status, 0, sim.stderr);
  fs.writeFileSync(file('tts.log'), sim.stdout);
  fs.writeFileSync(file('base.prom'), SCRAPE);
  fs.writeFileSync(file('cand.prom'), SCRAPE);
});

after(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

test('a negative number given to a numeric option is refused by its own rule, exit 2', () => {
  const compare = cli(['compare', file('tts.log'), file('tts.log'), '--min-change-pct', '-1']);
  assert.equal(compare.status, 2);
  assert.match(compare.stderr, /--min-change-pct must be a percentage, 0 or more \(got '-1'\)/);
  assert.doesNotMatch(compare.stderr, /ambiguous/);
  const follow = cli(['analyze', file('tts.log'), '--follow', '--duration', '-5']);
  assert.equal(follow.status, 2);
  assert.match(follow.stderr, /--duration must be a positive number of seconds/);
  assert.doesNotMatch(follow.stderr, /ambiguous/);
});

test('explain: --quantile repeated gives each quantile once, in order; --target repeated once; targets in any case', () => {
  const json = (args: string[]) => {
    const r = cli(['explain', file('tts.log'), '--format', 'json', ...args]);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { tail: { target: string; quantile: string }[] };
  };
  const quantiles = json(['--target', 'e2e', '--quantile', 'p99', '--quantile', 'p90', '--quantile', 'p99']);
  assert.deepEqual(
    quantiles.tail.map((t) => `${t.target} ${t.quantile}`),
    ['e2e p90', 'e2e p99'],
  );
  const targets = json(['--target', 'e2e', '--target', 'E2E', '--target', 'STAGE1.TTFT', '--quantile', 'p95']);
  assert.deepEqual(
    targets.tail.map((t) => `${t.target} ${t.quantile}`),
    ['e2e p95', 'stage1.ttft p95'],
  );
  // The table: the e2e section once.
  const table = cli(['explain', file('tts.log'), '--target', 'e2e', '--target', 'e2e', '--quantile', 'p95']);
  assert.equal(table.status, 0, table.stderr);
  const sections = table.stdout.split('\n').filter((l) => /^Why .* is slow at p/.test(l));
  assert.equal(sections.length, 1, table.stdout);
  const bad = cli(['explain', file('tts.log'), '--quantile', 'p95', '--quantile', 'p50']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--quantile must be one of p90, p95, p99 \(got 'p50'\)/);
});

test('compare of two scrapes with --exclude-cold says on stderr that it cannot apply', () => {
  const r = cli(['compare', file('base.prom'), file('cand.prom'), '--exclude-cold']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stderr,
    /stage-lens compare: warning: --exclude-cold does not apply to .*base\.prom and .*cand\.prom: a \/metrics scrape has no per-request values/,
  );
  const logs = cli(['compare', file('tts.log'), file('tts.log'), '--exclude-cold']);
  assert.doesNotMatch(logs.stderr, /warning/);
});

test('a deploy YAML with a stage_id twice, or num_replicas below 1: exit 2 naming the line, in simulate and analyze', () => {
  fs.writeFileSync(
    file('dup.yaml'),
    'stages:\n  - stage_id: 0\n    max_num_seqs: 4\n  - stage_id: 0\n    max_num_seqs: 8\n',
  );
  const sim = cli(['simulate', '--deploy-config', file('dup.yaml'), '--requests', '1', '--speed', '1000']);
  assert.equal(sim.status, 2);
  assert.match(sim.stderr, /dup\.yaml line 4: stage_id 0 is given twice \(first on line 2\)/);
  assert.equal(sim.stdout, '');
  const dup = cli(['analyze', file('tts.log'), '--deploy-config', file('dup.yaml')]);
  assert.equal(dup.status, 2);
  assert.match(dup.stderr, /dup\.yaml is not a config a server runs: line 4: Duplicate `stage_id: 0`/);
  for (const replicas of ['0', '-3']) {
    const yaml = file(`replicas${replicas}.yaml`);
    fs.writeFileSync(yaml, `stages:\n  - stage_id: 0\n    num_replicas: ${replicas}\n  - stage_id: 1\n`);
    const a = cli(['analyze', file('tts.log'), '--deploy-config', yaml]);
    assert.equal(a.status, 2, `num_replicas ${replicas}: ${a.stdout}`);
    assert.match(a.stderr, new RegExp(`line 3: \`num_replicas\` must be at least 1; it is ${replicas}`));
    const s = cli(['simulate', '--deploy-config', yaml, '--requests', '1', '--speed', '1000']);
    assert.equal(s.status, 2);
    assert.match(s.stderr, /stage 0: num_replicas must be a positive integer/);
  }
});

test('a --deploy-config that is not a file to read: exit 2 saying why, as for the input', () => {
  for (const [config, why] of [
    [file('absent.yaml'), 'no such file'],
    [dir, 'is a directory'],
    ['/dev/null', 'not a regular file'],
  ]) {
    const r = cli(['analyze', file('tts.log'), '--deploy-config', config]);
    assert.equal(r.status, 2, config);
    assert.equal(r.stderr, `stage-lens analyze: cannot read the deploy config ${config}: ${why}\n`);
    assert.equal(r.stdout, '');
  }
  const input = cli(['analyze', dir]);
  assert.equal(input.stderr, `stage-lens analyze: cannot read ${dir}: is a directory\n`);
});

test('analyze with a deploy YAML of other stage ids than the log says once that it is not the config the server ran', () => {
  fs.writeFileSync(file('three.yaml'), 'stages:\n  - stage_id: 0\n  - stage_id: 1\n  - stage_id: 2\n');
  const r = cli(['analyze', file('tts.log'), '--deploy-config', file('three.yaml')]);
  assert.equal(r.status, 0, r.stderr);
  const text = r.stdout.replace(/\s+/g, ' ');
  const sentence =
    "The deploy config three.yaml has stages 0, 1 and 2, this log's requests have stages 0 and 1: it is not the config this server ran, so its settings are no evidence here.";
  assert.equal(text.split(sentence).length - 1, 1, r.stdout);
  // Before the numbers.
  assert.ok(text.indexOf(sentence) < text.indexOf('Phase split per stage'));
  const json = cli(['analyze', file('tts.log'), '--deploy-config', file('three.yaml'), '--format', 'json']);
  assert.equal(json.status, 0);
  assert.equal(json.stderr, `stage-lens analyze: ${sentence}\n`);
  // The JSON names the config it was given and why it is not cited; no finding cites it.
  const report = JSON.parse(json.stdout) as {
    deployConfig: { path: string | null; from: string; cited: boolean; problem: string | null };
    findings: { message: string }[];
  };
  assert.deepEqual(report.deployConfig, { path: file('three.yaml'), from: 'flag', cited: false, problem: sentence });
  assert.ok(!report.findings.some((f) => f.message.includes('three.yaml')));
  // The config's own stages: nothing said.
  fs.writeFileSync(file('two.yaml'), 'stages:\n  - stage_id: 0\n  - stage_id: 1\n');
  const two = cli(['analyze', file('tts.log'), '--deploy-config', file('two.yaml')]);
  assert.doesNotMatch(two.stdout, /not the config/);
});
