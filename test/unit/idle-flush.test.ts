// When a quiet live stream may finalize its open request (StreamAnalysis.flushIdle): never
// while a table that may belong to it is being read, and only once its call looks over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';

const SAMPLE = fs.readFileSync(path.resolve(__dirname, '..', '..', 'samples', 'qwen3-tts-first-audio-cold-start.log'));

function feed(text: string | Buffer): { analysis: StreamAnalysis; parser: LogStreamParser } {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(text));
  return { analysis, parser };
}

test('INFO logs (one [OmniTiming] line per request): the first request is final once the stream goes quiet', () => {
  const line = (id: string): string =>
    `INFO 07-24 10:00:00 [omni_base.py:253] [OmniTiming] req=${id} total=1.00s preprocess=0.01s engine=0.99s stages=[0:0.50s,1:0.99s]\n`;
  const { analysis, parser } = feed(line('a'));
  assert.equal(analysis.requestCount, 0);
  assert.equal(analysis.flushIdle([parser]).length, 1);
  analysis.ingest(parser.push(line('b')));
  assert.equal(analysis.flushIdle([parser]).length, 1);
  assert.equal(analysis.requestCount, 2);
});

test('DEBUG tables: not after the E2E table or [OmniTiming] (the stage table follows), and not inside the stage table', () => {
  const call = SAMPLE.indexOf('[Overall Summary]');
  const omniTiming = SAMPLE.indexOf('[OmniTiming]', call);
  const afterE2E = SAMPLE.lastIndexOf(0x0a, omniTiming) + 1;
  const afterOmniTiming = SAMPLE.indexOf(0x0a, omniTiming) + 1;
  const insideStage = SAMPLE.indexOf('| vllm_prefill_ms', omniTiming) + 5;
  const afterStage = SAMPLE.lastIndexOf(0x0a, SAMPLE.indexOf('"POST /v1/audio/speech', insideStage)) + 1;
  for (const [where, end, final] of [
    ['after the E2E table', afterE2E, 0],
    ['after [OmniTiming]', afterOmniTiming, 0],
    ['inside the stage table', insideStage, 0],
    ['after the stage table', afterStage, 1],
  ] as const) {
    const { analysis, parser } = feed(SAMPLE.subarray(0, end));
    assert.equal(parser.holdsRequestTable, where === 'inside the stage table', where);
    assert.equal(analysis.flushIdle([parser]).length, final, where);
  }
});

test('what the stream showed wins over the usual order: a transfer table after the stage table', () => {
  const table = (title: string, header: string, rows: string[]): string =>
    [
      `[${title}]`,
      '+-------+-------+',
      `| Field | ${header} |`,
      '+-------+-------+',
      ...rows.map((r) => `| ${r} |`),
      '+-------+-------+',
      '',
    ].join('\n');
  const call = (id: string): string =>
    table(`StageRequestStats [request_id=${id}]`, '0    ', ['vllm_ttft_ms | 1.000']) +
    table(`TransferEdgeStats [request_id=${id}]`, '0->1 ', ['tx_ms | 0.100']);
  const first = call('r1');
  const stageOnly = first.slice(0, first.indexOf('[TransferEdgeStats'));
  // Before a whole call was seen, a stage table is usually the last record...
  const early = feed(stageOnly);
  assert.equal(early.analysis.flushIdle([early.parser]).length, 1);
  // ...but once a call showed a transfer table after it, a pause there keeps the request open.
  const { analysis, parser } = feed(first + call('r2').slice(0, call('r2').indexOf('[TransferEdgeStats')));
  assert.equal(analysis.requestCount, 1);
  assert.equal(analysis.flushIdle([parser]).length, 0);
  analysis.ingest(parser.push(call('r2').slice(call('r2').indexOf('[TransferEdgeStats'))));
  assert.equal(analysis.flushIdle([parser]).length, 1);
  assert.deepEqual(
    [...analysis.requests].map((r) => [r.requestId, r.transfers.length]),
    [
      ['r1', 1],
      ['r2', 1],
    ],
  );
});
