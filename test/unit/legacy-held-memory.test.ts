// A log_utils.py stats record waiting for its other file's record (up to 100,000 of them) is
// held as its values only: the parsed record, and the line its strings were sliced from, are let
// go; the request built once the other record comes has every value of both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { LegacyRequestReader } from '../../server/core/analysis/legacyRequests';
import { LogStreamParser } from '../../server/core/log';
import type { LegacyDictRecord } from '../../server/core/records';
import { cellToJson } from '../../server/core/values';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

const ID = '0_5d0b5a4e-7c1f-4d8e-9a43-2f6c1b7e9d10';
const OVERALL = `{"type": "overall_request", "request_id": "${ID}", "final_stage_id": 1, "e2e_time_ms": 1712.5, "num_tokens_out": 512, "service_time_ms": 1516.0, "queue_time_ms": null, "stages": {"0": {"stage_gen_time_ms": 412.25, "num_tokens_out": 96}, "1": {"stage_gen_time_ms": 1103.75, "num_tokens_out": 512}}}\n`;
const ORCHESTRATOR = `{"type": "orchestrator_request_e2e", "request_id": "${ID}", "final_stage_id": 1, "e2e_time_ms": 1712.5, "num_tokens_out": 512, "e2e_time_per_token_ms": 3.3447265625}\n`;

function recordOf(line: string): LegacyDictRecord {
  const parser = new LogStreamParser();
  const out = [...parser.push(Buffer.from(line)).records, ...parser.end().records];
  const record = out.find((r): r is LegacyDictRecord => r.kind === 'legacyDict');
  assert.ok(record !== undefined, line);
  return record;
}

test('a held stats record keeps neither its parsed record nor its values object; the joined request has both records values', async () => {
  const reader = new LegacyRequestReader((requestId) => ({ requestId, boot: 0, cold: false }));
  let weak: { record: WeakRef<LegacyDictRecord>; values: WeakRef<object> } | null = null;
  (() => {
    const record = recordOf(OVERALL);
    weak = { record: new WeakRef(record), values: new WeakRef(record.values) };
    assert.equal(reader.read(record).length, 0);
  })();
  await turn();
  gc();
  await turn();
  assert.equal(weak!.record.deref(), undefined, 'the parsed record is let go');
  assert.equal(weak!.values.deref(), undefined, 'its values object is let go');

  const [request, ...more] = reader.read(recordOf(ORCHESTRATOR));
  assert.equal(more.length, 0);
  assert.equal(reader.joined, 1);
  assert.equal(request?.requestId, ID);
  assert.deepEqual(Object.fromEntries(Object.entries(request?.e2e ?? {}).map(([k, c]) => [k, cellToJson(c)])), {
    e2e_time_ms: 1712.5,
    num_tokens_out: 512,
    service_time_ms: 1516,
    queue_time_ms: null,
    e2e_time_per_token_ms: 3.3447265625,
  });
  assert.deepEqual(
    request?.stages.map((s) => [
      s.stageId,
      Object.fromEntries(Object.entries(s.fields).map(([k, c]) => [k, cellToJson(c)])),
    ]),
    [
      [0, { stage_gen_time_ms: 412.25, num_tokens_out: 96 }],
      [1, { stage_gen_time_ms: 1103.75, num_tokens_out: 512 }],
    ],
  );
});
