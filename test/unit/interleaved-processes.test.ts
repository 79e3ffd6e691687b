// Two server processes logging to one file: their lines, and so their records, interleave.
// Each process's calls are followed apart (RequestAssembler lanes), so every request is read
// whole, with the values it has when its process's log is read alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { analysedLog } from './support/analysedLog';

const OMNI = fs.readFileSync(
  path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log'),
  'utf8',
);
/** The same three requests as another process prints them (another pid, other request ids). */
const OTHER = OMNI.replaceAll('pid=12672', 'pid=12673').replaceAll('chatcmpl-', 'chatcmpl-other-');

/** Line i of each text in turn. */
function interleaveLines(a: string, b: string): string {
  const la = a.split('\n');
  const lb = b.split('\n');
  const out: string[] = [];
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (i < la.length) out.push(la[i] as string);
    if (i < lb.length) out.push(lb[i] as string);
  }
  return out.join('\n');
}

/** What a request says, without where it sits in the file. */
function valuesOf(request: AnalyzedRequest): unknown {
  return {
    stages: request.stages.map((s) => ({ id: s.stageId, fields: s.fields, split: s.split })),
    e2e: request.e2e,
    timing: request.timing?.stages ?? null,
    transfers: request.transfers.length,
    overall: request.overallSummary?.fields ?? null,
    hasStageTable: request.hasStageTable,
  };
}

test('two processes interleaved line by line: each request read whole, with the values of its own log', () => {
  const alone = new Map(analysedLog(Buffer.from(OMNI)).requests.map((r) => [r.requestId, valuesOf(r)]));
  assert.equal(alone.size, 3);
  const both = analysedLog(Buffer.from(interleaveLines(OMNI, OTHER)));
  assert.deepEqual(
    both.requests.map((r) => r.requestId),
    [
      'chatcmpl-3c88c0cf9be8c9bf',
      'chatcmpl-other-3c88c0cf9be8c9bf',
      'chatcmpl-7f0f5c781f1aae4a',
      'chatcmpl-other-7f0f5c781f1aae4a',
      'chatcmpl-ae4840a79e5b9ea1',
      'chatcmpl-other-ae4840a79e5b9ea1',
    ],
  );
  for (const request of both.requests) {
    const own = alone.get(request.requestId.replace('chatcmpl-other-', 'chatcmpl-'));
    assert.deepEqual(valuesOf(request), own, request.requestId);
  }
  // Every request has its stage table: no "the server ran at INFO" notice.
  assert.equal(both.tablesMissing, null);
  assert.equal(both.stages[0]?.requestCount, 6);
});

test('a quiet stream finalizes the process whose call is over, not the one still inside its call', () => {
  // Process A printed its first call whole; process B is between its E2E table and its stage table.
  const cutA = OMNI.slice(0, OMNI.indexOf('\n', OMNI.indexOf('"POST /v1/chat/completions')) + 1);
  const otherCall = OTHER.slice(0, OTHER.indexOf('[OmniTiming]'));
  const cutB = otherCall.slice(0, otherCall.lastIndexOf('\n') + 1);
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(interleaveLines(cutA, cutB)));
  assert.equal(parser.holdsRequestTable, false);
  const done = analysis.flushIdle([parser]);
  assert.deepEqual(
    done.map((r) => r.requestId),
    ['chatcmpl-3c88c0cf9be8c9bf'],
  );
  // B's call goes on: its stage table joins the request its E2E table opened.
  analysis.ingest(parser.push(OTHER.slice(cutB.length, OTHER.indexOf('[Overall Summary]', cutB.length))));
  analysis.ingest(parser.end());
  const rest = analysis.flush();
  assert.deepEqual(
    rest.map((r) => [r.requestId, r.hasStageTable, r.timing !== null, Object.keys(r.e2e).length > 0]),
    [['chatcmpl-other-3c88c0cf9be8c9bf', true, true, true]],
  );
});
