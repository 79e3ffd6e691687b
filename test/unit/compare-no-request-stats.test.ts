// A log of 0 requests, as compare says it: the run holding nothing to compare (emptyRunReason,
// compare's exit 2) and the report's note (a session whose scrape is compared beside such a log)
// give the same why, for a log of [Overall Summary] tables only, one with DEBUG lines and no
// stats, and one with neither.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compareRuns, emptyRunReason, LogRunReader } from '../../server/core/compare';
import type { RunData } from '../../server/core/compare';
import { scrapeRun } from '../../server/capture/compareInput';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const SCRAPE = readFileSync(path.join(FIXTURES, 'scrapes', 'qwen3-tts-codec-replicas.prom'), 'utf8');

function logRun(bytes: Buffer, source: string): RunData {
  const reader = new LogRunReader(false);
  reader.push(bytes);
  return { source, kind: 'log', samples: reader.end(), histograms: null, problemCount: 0 };
}

/** The log's run beside a scrape (a saved session with both): its requests are 0, its histograms compared. */
function withScrape(run: RunData): RunData {
  return { ...run, kind: 'session', histograms: scrapeRun(SCRAPE, run.source).histograms };
}

const LOGS: readonly (readonly [string, Buffer, string])[] = [
  [
    'overall.log',
    readFileSync(path.join(FIXTURES, 'real-logs', '02-pr891-overall-apiserver-prefix.log')),
    'the log has 1 [Overall Summary] table (one value per table and field, which `stage-lens analyze` shows) and no per-request stats table; comparing needs the per-request tables, which the server prints with --log-stats and VLLM_LOGGING_LEVEL=DEBUG',
  ],
  [
    'debug.log',
    Buffer.from('DEBUG 02-25 02:59:56 [omni.py:862] [Orchestrator] generate() called\n'),
    'no request stats in it (it has DEBUG lines, so the server already logs at DEBUG, as the per-stage tables need: was it written without --log-stats?)',
  ],
  [
    'plain.log',
    Buffer.from('INFO 02-25 02:59:56 [omni.py:862] starting\n'),
    'no request stats in it (is it a vLLM-Omni server log written with --log-stats, and VLLM_LOGGING_LEVEL=DEBUG for the per-stage tables?)',
  ],
];

test('a log of 0 requests: the exit-2 reason and the note of a report beside its scrape give the same why', () => {
  const said = LOGS.map(([name, bytes]) => {
    const run = logRun(bytes, name);
    const note = compareRuns(withScrape(run), scrapeRun(SCRAPE, 'b.prom')).notes.find((n) =>
      n.startsWith('The baseline ('),
    );
    return [emptyRunReason(run), note];
  });
  assert.deepEqual(
    said,
    LOGS.map(([name, , why]) => [`0 requests read: ${why}`, `The baseline (${name}): 0 requests read: ${why}`]),
  );
});
