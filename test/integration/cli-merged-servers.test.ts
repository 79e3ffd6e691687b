// Two servers' logs merged into one file by `docker compose logs` (coloured) and `kubectl logs
// --prefix`, their lines interleaved one by one, read by the built CLI as a real child process:
// every request of both servers, each with the numbers its own log gives, and no input problem,
// though both containers print the same `(APIServer pid=5151)`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const LOG = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const dir = tempFolder('stage-lens-merged-');

interface Json {
  requests: { requestId: string; stages: unknown; e2e: unknown }[];
  problems: { line: number; message: string }[];
}

function lines(rename: boolean): string[] {
  const text = fs.readFileSync(LOG, 'utf8');
  return (rename ? text.replaceAll('speech-', 'speechB-') : text).split('\n').filter((l) => l !== '');
}

function merged(name: string, first: (l: string) => string, second: (l: string) => string): string {
  const a = lines(false).map(first);
  const b = lines(true).map(second);
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...[a[i], b[i]].filter((l) => l !== undefined));
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `${out.join('\n')}\n`);
  return file;
}

function analyzed(file: string): Json {
  const r = cli(['analyze', file, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Json;
}

/** Each request's numbers, by id (the second server's ids back to the first's, to compare). */
function numbers(doc: Json, prefix: string): Map<string, string> {
  return new Map(
    doc.requests
      .filter((r) => r.requestId.startsWith(prefix))
      .map((r) => [r.requestId.replace(prefix, 'speech-'), JSON.stringify({ stages: r.stages, e2e: r.e2e })]),
  );
}

test("a merged log of two servers gives each server's requests as its own log does", () => {
  const alone = numbers(analyzed(LOG), 'speech-');
  assert.equal(alone.size, 6);
  const files = [
    merged(
      'compose.log',
      (l) => `\x1b[36momni-vllm-1  | \x1b[0m${l}`,
      (l) => `\x1b[33momni-vllm-2  | \x1b[0m${l}`,
    ),
    merged(
      'kubectl.log',
      (l) => `[pod/vllm-omni-0/vllm] ${l}`,
      (l) => `[pod/vllm-omni-1/vllm] ${l}`,
    ),
  ];
  for (const file of files) {
    const doc = analyzed(file);
    assert.equal(doc.requests.length, 12, file);
    assert.deepEqual(doc.problems, [], file);
    assert.deepEqual(numbers(doc, 'speech-'), alone, file);
    assert.deepEqual(numbers(doc, 'speechB-'), alone, file);
  }
  const table = cli(['analyze', files[1] as string]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens: 12 requests, 2 stages from .*kubectl\.log\n/);
  assert.doesNotMatch(table.stdout, /Input problems/);
});

test("each server's end to end, in the table and the JSON, is its own log's", () => {
  const before = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-before-fix.log');
  const a = fs
    .readFileSync(LOG, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const b = fs
    .readFileSync(before, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(`omni-vllm-1  | ${a[i] as string}`);
    if (i < b.length) out.push(`omni-vllm-2  | ${b[i] as string}`);
  }
  const file = path.join(dir, 'two-builds.log');
  fs.writeFileSync(file, `${out.join('\n')}\n`);
  type E2e = { count: number; p50: number; p90: number; p99: number; max: number; mean: number };
  const own = (log: string): E2e =>
    (JSON.parse(cli(['analyze', log, '--format', 'json']).stdout) as { endToEnd: E2e }).endToEnd;
  const r = cli(['analyze', file, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { servers?: { server: string; requests: number; e2eMs: E2e | null }[] };
  const {
    fromOmniTiming: _a,
    requestsWithout: _b,
    ...first
  } = own(LOG) as E2e & { fromOmniTiming: number; requestsWithout: number };
  const {
    fromOmniTiming: _c,
    requestsWithout: _d,
    ...second
  } = own(before) as E2e & {
    fromOmniTiming: number;
    requestsWithout: number;
  };
  assert.deepEqual(doc.servers, [
    { server: 'omni-vllm-1', requests: 6, e2eMs: first },
    { server: 'omni-vllm-2', requests: 6, e2eMs: second },
  ]);
  assert.notEqual(first.p50, second.p50);

  const table = cli(['analyze', file]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(
    table.stdout,
    /\nEnd to end per server, ms \(this log merges 2 servers' lines, told apart by their tags; n: requests with an end-to-end time\)\nserver +requests +n +p50 +p90 +p99 +max\n[- ]+\nomni-vllm-1 +6 +6 +1,425 .*\nomni-vllm-2 +6 +6 +1,258 /,
  );
  // A log of one server has no such table and no `servers`.
  assert.doesNotMatch(cli(['analyze', LOG]).stdout, /per server/);
  assert.equal(
    (JSON.parse(cli(['analyze', LOG, '--format', 'json']).stdout) as { servers?: unknown }).servers,
    undefined,
  );
});

test("each server numbers its own boots: one pod's restart is a boot of that pod alone, as its own log has it", () => {
  // kubectl logs --prefix of two pods; the second restarted after its third request.
  const file = path.join(ROOT, 'test', 'fixtures', 'logs', 'merged-kubectl-two-servers-restart.log');
  const r = cli(['analyze', file, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { requests: { server: string; boot: number; cold: boolean }[] };
  const ofPod = (pod: string): string =>
    doc.requests
      .filter((q) => q.server === pod)
      .map((q) => `${q.boot}${q.cold ? ' cold' : ''}`)
      .join(', ');
  assert.equal(ofPod('pod/vllm-omni-0/vllm'), '1 cold, 1, 1, 1, 1, 1');
  assert.equal(ofPod('pod/vllm-omni-1/vllm'), '1 cold, 1, 1, 2 cold, 2, 2');

  // Boot 2 is the restarted pod's: its last 3 requests, nothing of the other pod.
  const boot2 = cli(['analyze', file, '--boot', '2']);
  assert.equal(boot2.status, 0, boot2.stderr);
  assert.match(boot2.stdout, /^Stage Lens: 3 requests, 2 stages, 2 server boots \(1 cold request\)/);
  assert.match(boot2.stdout, /Boot 2: the requests of server boot 2 only; 9 requests of boot 1 left out\./);

  // The pod that never restarted has no boot 2, and is told so.
  const none = cli(['analyze', file, '--server', 'pod/vllm-omni-0/vllm', '--boot', '2']);
  assert.equal(none.status, 2);
  assert.match(
    none.stderr,
    /the log has no request of server 'pod\/vllm-omni-0\/vllm' in boot 2: boot 2's servers are pod\/vllm-omni-1\/vllm \(3 requests\); each server numbers its own starts, so one that did not restart has no boot 2/,
  );
  // Its own boot 1: its 6 requests, as its own log reads.
  const own = cli(['analyze', file, '--server', 'pod/vllm-omni-0/vllm', '--boot', '1', '--format', 'json']);
  assert.equal(own.status, 0, own.stderr);
  assert.equal((JSON.parse(own.stdout) as { requests: unknown[] }).requests.length, 6);
  // compare says the same of a side that names it.
  const side = cli(['compare', file, file, '--baseline-server', 'pod/vllm-omni-0/vllm', '--baseline-boot', '2']);
  assert.equal(side.status, 2);
  assert.match(
    side.stderr,
    /^stage-lens compare: --baseline-server pod\/vllm-omni-0\/vllm: the baseline \(.*\): the log has no request of server 'pod\/vllm-omni-0\/vllm' in boot 2: boot 2's servers are pod\/vllm-omni-1\/vllm \(3 requests\); each server numbers its own starts/,
  );
});
