// `--server` of analyze and explain, `--baseline-server` / `--candidate-server` of compare, on a log that merges two servers' (docker compose logs: one
// server ran the build before the codec TTFT fix, the other the build after), read by the built
// CLI as a real child process: one server's requests are read as its own log gives them, in
// every format, and a name the log lacks, a log of one server and a scrape are refused with
// the names to give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { followLog, runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const RENDERED = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const AFTER = path.join(RENDERED, 'qwen3tts-talker-first-audio-after-fix.log');
const BEFORE = path.join(RENDERED, 'qwen3tts-talker-first-audio-before-fix.log');
const SCRAPE = path.join(ROOT, 'test', 'fixtures', 'scrapes', 'qwen3-tts-one-output.prom');
const dir = tempFolder('stage-lens-server-option-');

/** The two logs' lines interleaved one by one, each tagged as `docker compose logs` tags it. */
function mergedLog(): string {
  const a = fs.readFileSync(AFTER, 'utf8').split('\n');
  const b = fs.readFileSync(BEFORE, 'utf8').split('\n');
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? '') !== '') out.push(`omni-vllm-1  | ${a[i] as string}`);
    if ((b[i] ?? '') !== '') out.push(`omni-vllm-2  | ${b[i] as string}`);
  }
  fs.mkdirSync(dir, { recursive: true });
  // Named as the pipeline's logs are, so that its stage roles come from its name as theirs do.
  const file = path.join(dir, 'qwen3tts-compose.log');
  fs.writeFileSync(file, `${out.join('\n')}\n`);
  return file;
}

const MERGED = mergedLog();

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Json {
  requests: { requestId: string; line: number; server?: string; stages: unknown; e2e: unknown }[];
  stageSummary: unknown;
  endToEnd: unknown;
  servers?: unknown;
  server?: unknown;
}

function json(args: readonly string[]): Json {
  const r = cli(['analyze', ...args, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Json;
}

test("analyze --server reads one server's requests as its own log gives them (JSON)", () => {
  const alone = json([BEFORE]);
  const one = json([MERGED, '--server', 'omni-vllm-2']);
  assert.equal(one.requests.length, 6);
  assert.ok(one.requests.every((r) => r.server === 'omni-vllm-2'));
  assert.deepEqual(
    one.requests.map((r) => ({ id: r.requestId, stages: r.stages, e2e: r.e2e })),
    alone.requests.map((r) => ({ id: r.requestId, stages: r.stages, e2e: r.e2e })),
  );
  // The summaries are that server's alone: the other build's codec TTFT is not pooled in.
  assert.deepEqual(one.stageSummary, alone.stageSummary);
  assert.deepEqual(one.endToEnd, alone.endToEnd);
  assert.deepEqual(one.server, {
    selected: 'omni-vllm-2',
    requestsOutside: 6,
    untaggedRequests: 0,
    servers: [
      { server: 'omni-vllm-1', requests: 6 },
      { server: 'omni-vllm-2', requests: 6 },
    ],
  });
  const other = json([MERGED, '--server', 'omni-vllm-1']);
  assert.deepEqual(other.stageSummary, json([AFTER]).stageSummary);
  assert.notDeepEqual(other.stageSummary, one.stageSummary);
});

test('analyze --server: the table says what it left out; the CSV names each row’s server', () => {
  const table = cli(['analyze', MERGED, '--server', 'omni-vllm-2']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens: 6 requests, 2 stages from .*compose\.log\n/);
  assert.match(
    table.stdout,
    /\nServer omni-vllm-2: the requests of that server only; 6 requests of omni-vllm-1 left out\.\n/,
  );
  // One server in the report: no per-server table.
  assert.doesNotMatch(table.stdout, /End to end per server/);

  const whole = cli(['analyze', MERGED, '--format', 'csv']);
  assert.equal(whole.status, 0, whole.stderr);
  const rows = whole.stdout.trimEnd().split('\n');
  assert.equal(rows[0]?.split(',').at(-1), 'server');
  const servers = rows.slice(1).map((row) => row.split(',').at(-1));
  assert.deepEqual([...new Set(servers)].sort(), ['omni-vllm-1', 'omni-vllm-2']);

  const csv = cli(['analyze', MERGED, '--server', 'omni-vllm-2', '--format', 'csv']);
  assert.equal(csv.status, 0, csv.stderr);
  assert.equal(
    csv.stderr,
    'stage-lens analyze: Server omni-vllm-2: the requests of that server only; 6 requests of omni-vllm-1 left out.\n',
  );
  const alone = cli(['analyze', BEFORE, '--format', 'csv']);
  // The same rows as the server's own log, but for the line (the merged file's) and the server.
  const withoutLineAndServer = (text: string): string[] =>
    text
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((row) => {
        const cells = row.split(',');
        cells.splice(3, 1);
        return cells.slice(0, -1).join(',');
      });
  assert.deepEqual(withoutLineAndServer(csv.stdout), withoutLineAndServer(alone.stdout));
  assert.ok(
    csv.stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .every((row) => row.endsWith(',omni-vllm-2')),
  );
  // A log of one server leaves the column empty.
  assert.ok(
    alone.stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .every((row) => row.endsWith(',')),
  );
});

test("explain --server explains one server's tail as its own log's", () => {
  const r = cli(['explain', MERGED, '--server', 'omni-vllm-2', '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const one = JSON.parse(r.stdout) as { scope: { server?: string }; requestCount: number; tail: unknown };
  const alone = JSON.parse(cli(['explain', BEFORE, '--format', 'json']).stdout) as typeof one;
  assert.equal(one.requestCount, 6);
  assert.equal(one.scope.server, 'omni-vllm-2');
  assert.deepEqual(one.tail, alone.tail);
  const table = cli(['explain', MERGED, '--server', 'omni-vllm-2']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens explain: .*compose\.log · 6 requests of server omni-vllm-2 \(6 in scope\)\n/);
  assert.equal(
    table.stderr,
    'stage-lens explain: Server omni-vllm-2: the requests of that server only; 6 requests of omni-vllm-1 left out.\n',
  );
});

test('--server names the servers when the log has no such one, and says when a log has no tags', () => {
  for (const command of ['analyze', 'explain']) {
    const r = cli([command, MERGED, '--server', 'vllm-2']);
    assert.equal(r.status, 2, command);
    assert.equal(
      r.stderr,
      `stage-lens ${command}: the log has no request of server 'vllm-2': its servers are omni-vllm-1 (6 requests) and omni-vllm-2 (6 requests); give the name as listed\n`,
    );
    const untagged = cli([command, AFTER, '--server', 'omni-vllm-1']);
    assert.equal(untagged.status, 2, command);
    assert.match(
      untagged.stderr,
      new RegExp(
        `^stage-lens ${command}: the log has no request of server 'omni-vllm-1': no line of it carries a server's tag \\(kubectl logs --prefix, docker compose logs or stern write them`,
      ),
    );
    const scrape = cli([command, SCRAPE, '--server', 'omni-vllm-1']);
    assert.equal(scrape.status, 2, command);
    assert.equal(scrape.stdout, '');
    assert.match(
      scrape.stderr,
      /is a \/metrics scrape, which has no server tags .*; --server selects a log's requests by the server tag their lines carry: run (analyze|explain) without it\n$/,
    );
    const blank = cli([command, MERGED, '--server', ' ']);
    assert.equal(blank.status, 2, command);
    assert.match(blank.stderr, /--server needs a server's name as the report lists it/);
  }
});

test("analyze --follow --server: the final summary of a merged log written while followed is that server's, as analyze reads it", async () => {
  const log = path.join(dir, 'followed-compose.log');
  fs.writeFileSync(log, '');
  const following = followLog(log, ['--server', 'omni-vllm-2']);
  await sleep(800);
  const bytes = fs.readFileSync(MERGED, 'utf8');
  for (let at = 0; at < bytes.length; at += 20_000) {
    fs.appendFileSync(log, bytes.slice(at, at + 20_000));
    await sleep(100);
  }
  await sleep(1000);
  const followed = await following.interrupt();
  const atOnce = cli(['analyze', log, '--server', 'omni-vllm-2']);
  assert.equal(atOnce.status, 0, atOnce.stderr);
  assert.match(followed, /^Stage Lens: 6 requests, 2 stages from .*followed-compose\.log\n/);
  assert.match(
    followed,
    /\nServer omni-vllm-2: the requests of that server only; 6 requests of omni-vllm-1 left out\.\n/,
  );
  assert.equal(followed, atOnce.stdout);
  // A server the log has no request of: said, status 2, as without --follow.
  const none = cli(['analyze', log, '--follow', '--duration', '1', '--server', 'vllm-2']);
  assert.equal(none.status, 2);
  assert.match(
    none.stdout,
    /\nThe log has no request of server 'vllm-2': its servers are omni-vllm-1 \(6 requests\) and omni-vllm-2 \(6 requests\); give the name as listed\.\n/,
  );
  assert.equal(
    none.stderr,
    "stage-lens analyze: the log has no request of server 'vllm-2': its servers are omni-vllm-1 (6 requests) and omni-vllm-2 (6 requests); give the name as listed\n",
  );
});

test("compare --baseline-server A --candidate-server B of one merged log compares as the two servers' own logs do", () => {
  const pods = ['compare', MERGED, MERGED, '--baseline-server', 'omni-vllm-1', '--candidate-server', 'omni-vllm-2'];
  const r = cli([...pods, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  type Compare = Record<string, unknown> & { baseline: Record<string, unknown>; candidate: Record<string, unknown> };
  const servers = JSON.parse(r.stdout) as Compare;
  const logs = JSON.parse(cli(['compare', AFTER, BEFORE, '--format', 'json']).stdout) as Compare;
  const { baseline, candidate, ...compared } = servers;
  const { baseline: _b, candidate: _c, ...comparedLogs } = logs;
  assert.deepEqual(compared, comparedLogs);
  assert.equal(baseline['server'], 'omni-vllm-1');
  assert.equal(candidate['server'], 'omni-vllm-2');
  assert.equal(baseline['requestCount'], 6);
  const table = cli(pods);
  assert.equal(table.status, 0, table.stderr);
  assert.match(
    table.stdout,
    /\n {2}baseline {3}.*qwen3tts-compose\.log \(server omni-vllm-1\) · log · 6 requests\n {2}candidate {2}.*qwen3tts-compose\.log \(server omni-vllm-2\) · log · 6 requests\n/,
  );
  const unknown = cli(['compare', MERGED, MERGED, '--candidate-server', 'vllm-2']);
  assert.equal(unknown.status, 2);
  assert.equal(
    unknown.stderr,
    `stage-lens compare: --candidate-server vllm-2: the candidate (${MERGED}): the log has no request of server 'vllm-2': its servers are omni-vllm-1 (6 requests) and omni-vllm-2 (6 requests); give the name as listed\n`,
  );
  const scrape = cli(['compare', SCRAPE, MERGED, '--baseline-server', 'omni-vllm-1']);
  assert.equal(scrape.status, 2);
  assert.match(
    scrape.stderr,
    /--baseline-server omni-vllm-1: the baseline \(.*\) is a \/metrics scrape, which has no server tags/,
  );
});
