// analyze and explain --since / --until, run as the built dist/cli.js in a child process on a
// log of five requests that finished one a second (07:12:00 to 07:12:04): the window keeps the
// requests that finished in it, says what it left out, and a window no request finished in, a
// log without times or a time that is not one exit 2 with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const LOG = path.join(ROOT, 'test', 'fixtures', 'logs', 'two-stage-sequential.log');
const NO_PREFIX = path.join(ROOT, 'test', 'fixtures', 'real-logs', '13-docs-contributing-metrics-example-tables.log');

interface AnalysisJson {
  requests: { requestId: string }[];
  stageSummary: Record<string, Record<string, { count: number; p50: number }>>;
  window?: {
    from: string | null;
    to: string | null;
    requestsOutside: number;
    requestsWithoutTime: number;
    placed: boolean;
  };
}

test('analyze --since/--until keeps the requests that finished in the window, in every format', () => {
  const json = cli(['analyze', LOG, '--format', 'json', '--since', '07:12:01', '--until', '10-19 07:12:02']);
  assert.equal(json.status, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as AnalysisJson;
  assert.deepEqual(
    doc.requests.map((r) => r.requestId),
    ['req-X1', 'req-X2'],
  );
  assert.deepEqual(doc.window, {
    from: '10-19 07:12:01',
    to: '10-19 07:12:02',
    requestsOutside: 3,
    requestsWithoutTime: 0,
    placed: true,
  });
  assert.equal(doc.stageSummary['0']?.['stage_gen_time_ms']?.count, 2);
  // Without a window the JSON has no window member.
  const whole = JSON.parse(cli(['analyze', LOG, '--format', 'json']).stdout) as AnalysisJson;
  assert.equal(whole.requests.length, 5);
  assert.equal(whole.window, undefined);

  const table = cli(['analyze', LOG, '--since', '07:12:03']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens: 2 requests, 2 stages/);
  assert.match(table.stdout, /Window: the requests that finished from 10-19 07:12:03; 3 outside it left out\./);

  const csv = cli(['analyze', LOG, '--format', 'csv', '--until', '07:12:00']);
  assert.equal(csv.status, 0, csv.stderr);
  const ids = new Set(
    csv.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]),
  );
  assert.deepEqual([...ids], ['req-X0']);
  assert.match(csv.stderr, /Window: the requests that finished until 10-19 07:12:00; 4 outside it left out\./);
});

test('explain --since/--until explains the requests in the window and says it in its first line', () => {
  const run = cli(['explain', LOG, '--since', '07:12:02', '--target', 'e2e']);
  assert.equal(run.status, 0, run.stderr);
  assert.match(
    run.stdout,
    /^Stage Lens explain: .*two-stage-sequential\.log · 5 requests \(3 in scope: finished from 10-19 07:12:02\)/,
  );
  const json = cli(['explain', LOG, '--until', '07:12:01', '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as {
    requestsInScope: number;
    scope: { fromMs: number | null; toMs: number | null };
  };
  assert.equal(report.requestsInScope, 2);
  assert.equal(report.scope.fromMs, null);
  assert.equal(new Date(report.scope.toMs as number).toISOString().slice(5, 23), '10-19T07:12:01.999');
});

test('a window no request finished in, a log without times and a time that is not one exit 2 with why', () => {
  for (const command of ['analyze', 'explain']) {
    const empty = cli([command, LOG, '--since', '08:00']);
    assert.equal(empty.status, 2, `${command}: ${empty.stdout}`);
    assert.match(
      empty.stderr,
      /no request finished from 10-19 08:00:00: the log's requests finished 10-19 07:12:00 – 10-19 07:12:04/,
    );
    const untimed = cli([command, NO_PREFIX, '--until', '10:00']);
    assert.equal(untimed.status, 2, `${command}: ${untimed.stdout}`);
    assert.match(
      untimed.stderr,
      /carry no time \(their lines have no log prefix\), so --since\/--until cannot place them/,
    );
    if (command === 'analyze') {
      // The JSON says the window was not placed: the log has no time to place it by.
      const untimedJson = cli([command, NO_PREFIX, '--until', '10:00', '--format', 'json']);
      assert.equal(untimedJson.status, 2);
      assert.deepEqual((JSON.parse(untimedJson.stdout) as AnalysisJson).window, {
        from: null,
        to: null,
        requestsOutside: 0,
        requestsWithoutTime: 1,
        placed: false,
      });
      // The table says why it holds no request, not that the stats need DEBUG.
      assert.match(empty.stdout, /No request finished from 10-19 08:00:00: the log's requests finished/);
      assert.doesNotMatch(empty.stdout, /DEBUG/);
    }
    const bad = cli([command, LOG, '--since', '25:00']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--since '25:00' is not a time: a log time as vLLM prints it, 'MM-DD HH:MM\[:SS\]'/);
  }
  const follow = cli(['analyze', LOG, '--follow', '--since', '07:12']);
  assert.equal(follow.status, 2);
  assert.match(follow.stderr, /--since\/--until select from a whole log; --follow shows it as it grows/);
});
