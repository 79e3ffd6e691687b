// A live view before its first request: it says it waits, and how long, until the advice for a
// server without stats is likely to apply (a minute of output with no request).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_STATS_ADVICE_AFTER_S, waitingLines } from '../../server/core/report/liveWaiting';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { tableReport } from '../../server/core/report/tableReport';

const ADVICE =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats; its stats tables need VLLM_LOGGING_LEVEL=DEBUG.';

test('waiting: what has been read so far and for how long; the advice after a minute of output', () => {
  assert.deepEqual(waitingLines(1.4, null), ['Waiting for the first request (1 s so far): no output read yet.']);
  assert.match(
    waitingLines(12.9, 11)?.[0] ?? '',
    /^Waiting for the first request \(12 s so far\): a request shows once/,
  );
  // No output at all is never the server's stats setting: it keeps waiting.
  assert.notEqual(waitingLines(600, null), null);
  assert.equal(NO_STATS_ADVICE_AFTER_S, 60);
  assert.notEqual(waitingLines(70, 59.9), null);
  assert.equal(waitingLines(70, 60), null);
});

test('the table says the waiting lines instead of the advice; without them, the advice', () => {
  const snapshot = new StreamAnalysis().snapshot();
  const waiting = tableReport(snapshot, { source: 's', noRequestYet: ['Waiting for the first request (2 s so far).'] });
  assert.ok(waiting.includes('Waiting for the first request (2 s so far).'), waiting.join('\n'));
  assert.ok(!waiting.includes(ADVICE));
  assert.ok(tableReport(snapshot, { source: 's' }).includes(ADVICE));
});
