// End to end per server, for a log that merges several servers': each server's requests and their
// own end-to-end times, a server whose requests printed none shown without numbers (not 0 ms).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ServerSummaries } from '../../server/core/analysis/serverSummaries';
import { serverLines } from '../../server/core/report/serverTable';
import { endToEndOf } from '../../server/core/analysis/endToEnd';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { analysedStream } from './support/analysedLog';
import { FIXTURES } from './support/logHelpers';

test("each server's requests and end to end; a server without end-to-end times has no numbers", () => {
  const analysis = analysedStream(join(FIXTURES, 'logs', 'merged-kubectl-two-servers-restart.log'));
  const requests = [...analysis.requests];
  const summaries = new ServerSummaries();
  for (const r of requests) summaries.add(r);
  const first = requests[0] as AnalyzedRequest;
  // A request of a log of one server names none, and is not counted.
  const { server: _server, ...unnamed } = first;
  summaries.add(unnamed);
  // A third server whose one request printed no end-to-end time.
  const untimed: AnalyzedRequest = { ...first, server: 'pod/vllm-omni-2/vllm', e2e: {}, timing: null };
  assert.equal(endToEndOf(untimed), null);
  summaries.add(untimed);
  const summary = summaries.summary();
  const e2eOf = (server: string): number[] =>
    requests
      .filter((r) => r.server === server)
      .map((r) => endToEndOf(r)?.ms ?? NaN)
      .sort((a, b) => a - b);
  assert.deepEqual(
    summary?.map((s) => [s.server, s.requests, s.e2eMs?.count ?? null, s.e2eMs?.max ?? null]),
    [
      ['pod/vllm-omni-0/vllm', 6, 6, e2eOf('pod/vllm-omni-0/vllm').at(-1)],
      ['pod/vllm-omni-1/vllm', 6, 6, e2eOf('pod/vllm-omni-1/vllm').at(-1)],
      ['pod/vllm-omni-2/vllm', 1, null, null],
    ],
  );
  const lines = serverLines(summary ?? null);
  assert.match(lines[0] ?? '', /^End to end per server, ms \(this log merges 3 servers' lines/);
  assert.match(lines.at(-1) ?? '', /^pod\/vllm-omni-2\/vllm +1 +0 +- +- +- +-$/);
  assert.deepEqual(serverLines(null), []);
  // One server, tagged: the whole is its own.
  assert.deepEqual(serverLines(summary?.slice(0, 1) ?? null), []);
  assert.equal(new ServerSummaries().summary(), null);
});
