import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { findingColumnId, tableColumns } from '../../webview/latencyPanel/table/columns';
import { analysedLog } from './support/analysedLog';

const LOG = path.join(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log');

test("a preempted-requests filter brings the stage's preemption column into view, not its decode (the wait may be in the prefill)", () => {
  const snapshot = analysedLog(LOG);
  const finding = snapshot.findings.find((f) => f.code === 'preempted-requests');
  assert.equal(finding?.stageId, 0);
  const id = findingColumnId('preempted-requests', finding.stageId);
  assert.equal(id, '0.field:vllm_num_preemptions');
  const columns = tableColumns(snapshot.stages, {});
  assert.ok(
    columns.some((c) => c.id === id),
    `a column ${id} among ${columns.map((c) => c.id).join(', ')}`,
  );
  // A finding about one phase keeps its phase's column.
  assert.equal(findingColumnId('ttft-not-recorded', 2), '2.ttftMs');
  assert.equal(findingColumnId('preempted-requests', null), null);
});
