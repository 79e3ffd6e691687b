// Where each server boot of a log starts on the log clock (StreamAnalysis.bootStartsMs), which
// places a /metrics scrape's samples in their boot (gaugeScope.bootsByTime: a launched server's
// session has both). A start prints several marker lines (vLLM's API server version, its start,
// vLLM-Omni's orchestrator ready): the boot starts at the first, and one boot is one entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootsByTime } from '../../server/core/explain/gaugeScope';
import { logPrefix, renderLogRecord } from '../../server/simulate/render';
import { analyse, asyncChunk, renderRequest } from './support/explainLogs';

const at = (m: number, s: number): string => `10-22 09:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
const ms = (m: number, s: number): number => Date.UTC(2026, 9, 22, 9, m, s);

function line(time: string, file: string, message: string): string {
  return renderLogRecord(
    logPrefix({ process: 'APIServer pid=4242', level: 'INFO', timestamp: time, file, fileLine: 1, ansi: false }),
    [message],
  );
}

/** The three lines a vLLM-Omni start prints, a second apart from `s`. */
function start(m: number, s: number): string[] {
  return [
    line(at(m, s), 'api_server.py', 'vLLM API server version 0.11.0'),
    line(at(m, s + 1), 'api_server.py', 'Starting vLLM API server 0 on http://0.0.0.0:8091'),
    line(at(m, s + 2), 'omni.py', '[Orchestrator] All stages initialized successfully'),
  ];
}

test('a boot starts at its first marker line: two starts of three lines each are two boots', () => {
  const log = [
    ...start(0, 0),
    renderRequest(asyncChunk('a', 0, at(0, 10))),
    renderRequest(asyncChunk('b', 0, at(0, 20))),
    ...start(1, 0),
    renderRequest(asyncChunk('c', 0, at(1, 10))),
  ].join('');
  const { analysis, requests } = analyse(log);
  assert.deepEqual(
    requests.map((r) => [r.requestId, r.boot, r.cold]),
    [
      ['a', 1, true],
      ['b', 1, false],
      ['c', 2, true],
    ],
  );
  assert.deepEqual(analysis.bootStartsMs(), [ms(0, 0), ms(1, 0)]);
  // A scrape's samples: before the first start, in boot 1 (after its last marker line too), in boot 2.
  assert.deepEqual(
    [...bootsByTime([ms(0, 0) - 5000, ms(0, 5), ms(0, 30), ms(1, 5)], analysis.bootStartsMs())!],
    [0, 1, 1, 2],
  );
});
