// analyze and explain --since / --until over midnight, run as the built dist/cli.js in a child
// process on a log whose first timed line (a server start) is printed 11-28 23:59:58 and whose
// two requests finish after midnight, 11-29 00:00:05 and 00:00:15: a window of bare times,
// 23:59:50 to 00:00:10, is on the log's first day in both commands, so both select request a
// alone, and say the same window. The requests are fixture 05's (vllm-omni#3042) [OmniTiming]
// line with its time and request id changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const TIMING =
  fs
    .readFileSync(path.join(ROOT, 'test', 'fixtures', 'real-logs', '05-pr3042-omnitiming-and-overall.log'), 'utf8')
    .split('\n')
    .find((l) => l.includes('[OmniTiming]')) ?? '';
assert.ok(TIMING.includes('[omni_base.py'));
const PREFIX = TIMING.slice(0, TIMING.indexOf(' INFO ') + ' INFO '.length);
const MESSAGE = TIMING.slice(TIMING.indexOf('[omni_base.py'));

/** Fixture 05's [OmniTiming] line of request chatcmpl-`id`, printed at `time`. */
function timingLine(time: string, id: string): string {
  const line = `${PREFIX}${time} ${MESSAGE.replace('chatcmpl-ac59cea85b422f04', `chatcmpl-${id}`)}`;
  assert.ok(line.includes(`req=chatcmpl-${id} `));
  return line;
}

const LOG = path.join(tempFolder('stage-lens-window-midnight-'), 'over-midnight.log');
fs.writeFileSync(
  LOG,
  [
    `${PREFIX}11-28 23:59:58 [api_server.py:1885] Starting vLLM API server 0 on http://0.0.0.0:8091`,
    timingLine('11-29 00:00:05', 'a'),
    timingLine('11-29 00:00:15', 'b'),
  ].join('\n') + '\n',
);
const WINDOW = ['--since', '23:59:50', '--until', '00:00:10'];
const SAID = 'finished 11-28 23:59:50 – 11-29 00:00:10';

test("analyze places a window of bare times over midnight on the log's first day: the request after midnight in it", () => {
  const json = cli(['analyze', LOG, ...WINDOW, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as { requests: { requestId: string }[]; window: unknown };
  assert.deepEqual(
    doc.requests.map((r) => r.requestId),
    ['chatcmpl-a'],
  );
  assert.deepEqual(doc.window, {
    from: '11-28 23:59:50',
    to: '11-29 00:00:10',
    requestsOutside: 1,
    requestsWithoutTime: 0,
    placed: true,
  });
  const table = cli(['analyze', LOG, ...WINDOW]);
  assert.equal(table.status, 0, table.stderr);
  assert.equal(table.stdout.split('\n')[2], `Window: the requests that ${SAID}; 1 outside it left out.`);
});

test('explain places the same window as analyze and explains the same request', () => {
  const table = cli(['explain', LOG, ...WINDOW]);
  assert.equal(table.status, 0, table.stderr);
  assert.equal(table.stdout.split('\n')[0], `Stage Lens explain: ${LOG} · 2 requests (1 in scope: ${SAID})`);
  const json = cli(['explain', LOG, ...WINDOW, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { requestsInScope: number; scope: { fromMs: number; toMs: number } };
  assert.equal(report.requestsInScope, 1);
  assert.deepEqual(
    [report.scope.fromMs, report.scope.toMs].map((ms) => new Date(ms).toISOString().slice(5, 23)),
    ['11-28T23:59:50.000', '11-29T00:00:10.999'],
  );
});
