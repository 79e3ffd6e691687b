// A request's time per output token as the dicts print it (e2e_tpt of request_level_metrics,
// e2e_time_per_token_ms of log_utils.py's orchestrator_request_e2e record): upstream prints
// `e2e_ms / tokens if tokens > 0 else 0.0`, so a 0.0 is the no-token default, never 0 ms per
// token (unrecordedValues.ts); it is counted with its reason, not taken into the percentiles.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { analysedLog } from './support/analysedLog';
import { FIXTURES, utf8 } from './support/logHelpers';
import { tableReport } from '../../server/core/report/tableReport';
import { unrecordedReason } from '../../server/core/analysis/unrecordedValues';

const P = '(APIServer pid=1476973) INFO 02-03 16:23:23 [log_utils.py:550] ';

/** A request_level_metrics dict as log_utils.py pprints it (real-logs 06, 08). */
function requestDict(id: string, e2eMs: number, tpt: string, tokensOut: number): string {
  return [
    `{'type': 'request_level_metrics',`,
    ` 'request_id': '${id}',`,
    ` 'e2e_time_ms': ${e2eMs},`,
    ` 'e2e_tpt': ${tpt},`,
    ` 'e2e_total_tokens': ${tokensOut},`,
    ` 'stages': {0: {'stage_gen_time_ms': ${e2eMs / 2}, 'num_tokens_out': ${tokensOut}}}}`,
  ]
    .map((l) => P + l)
    .join('\n');
}

test('a 0.0 time per token is the no-output-token default, a number above 0 a measurement', () => {
  assert.equal(unrecordedReason('e2e_tpt', 0), 'noOutput');
  assert.equal(unrecordedReason('e2e_time_per_token_ms', 0), 'noOutput');
  assert.equal(unrecordedReason('e2e_tpt', 20.037932366358667), null);
  assert.equal(unrecordedReason('e2e_time_ms', 0), null, 'only the per-token fields');
});

test('request_level_metrics dicts: the 0.0 e2e_tpt of a request with no output token is left out, with its reason', () => {
  const text =
    [
      requestDict('chatcmpl-8f71eb7cb1b37da6', 58150.07972717285, '20.037932366358667', 2902),
      requestDict('chatcmpl-0c4d', 655865.7915592194, '0.0', 0),
      requestDict('chatcmpl-9e1a', 30000.5, '10.0', 3000),
    ].join('\n') + '\n';
  const snap = analysedLog(utf8(text));
  const perToken = snap.endToEnd?.timePerToken;
  assert.equal(perToken?.requests, 3);
  assert.deepEqual(perToken?.notRecorded, { noOutput: 1 });
  assert.equal(perToken?.ms?.count, 2);
  // The median of 10 and 20.04 (with a 0 ms taken in, it would be 10).
  assert.equal(perToken?.ms?.p50, 15.018966183179334);
  assert.equal(perToken?.ms?.max, 20.037932366358667);
  const table = tableReport(snap, { source: 'x.log' }).join('\n');
  assert.match(table, /\ntime per token +2 /);
  assert.match(
    table,
    /time per token: 1 of 3 requests printed 0\.0, the server's default for a request with no output token .*: left out, not counted as 0 ms\./,
  );
});

test('real-logs 08 (a request with no output token) and an orchestrator_request_e2e record print 0.0: no measurement', () => {
  const real = analysedLog(join(FIXTURES, 'real-logs', '08-pr500-legacy-omni-summary.log'));
  assert.deepEqual(real.endToEnd?.timePerToken, { ms: null, requests: 1, notRecorded: { noOutput: 1 } });
  const json = analysedLog(
    utf8(
      '{"type": "orchestrator_request_e2e", "request_id": "0_5d0b", "final_stage_id": 1, "e2e_time_ms": 1712.5, "num_tokens_out": 0, "e2e_time_per_token_ms": 0.0}\n',
    ),
  );
  assert.deepEqual(json.endToEnd?.timePerToken, { ms: null, requests: 1, notRecorded: { noOutput: 1 } });
});
