// `stage-lens explain` as a user runs it (the built CLI as a child process) on a log whose p90
// tail of end-to-end time arrived at a slightly higher load, 0.33 others in flight on average
// against 0.28, which read 0.3 and 0.3 to one decimal: the sentence that calls it higher prints
// them apart, and the JSON keeps the figures as measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cliStdout } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';
import { slightlyBusierTailLog } from '../unit/support/explainLogs';
import type { LoadAtArrival } from '../../server/core/explain/types';

const log = path.join(tempFolder('stage-lens-load-words-'), 'server.log');
writeFileSync(log, slightlyBusierTailLog());

test('a somewhat higher load is never printed as two equal means', () => {
  const text = cliStdout(['explain', log, '--target', 'e2e', '--quantile', 'p90']);
  const lines = text.split('\n');
  const reading = lines.find((l) => l.startsWith('Load at arrival (end-to-end time, p90 tail;')) ?? '';
  assert.match(
    reading,
    /: The tail arrived at a somewhat higher load \(0\.33 against 0\.28 requests in flight on average\): partly queueing, partly slower at the same load\.$/,
  );
  assert.ok(lines.includes('  mean in flight at arrival, all / tail: 0.28 / 0.33'), text);
  assert.doesNotMatch(text, /0\.3 against 0\.3/);

  const json = JSON.parse(cliStdout(['explain', log, '--target', 'e2e', '--quantile', 'p90', '--format', 'json'])) as {
    load: LoadAtArrival[];
  };
  const load = json.load[0];
  assert.deepEqual([load?.inFlight.all?.mean, load?.inFlight.tail?.mean, load?.reading], [0.28, 0.3333, 'mixed']);
});
