// The editor's Tail view reads load at arrival from the language server (stageLens/loadAtArrival,
// over a real connection): on samples/qwen3-tts-first-audio-cold-start.log, two server boots
// whose clock restarts, it counts no request of one boot in flight at an arrival of the other,
// and answers what `stage-lens explain` prints, number for number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { cliStdout } from './support/cliProcess';
import type { LoadAtArrival } from '../../server/protocol';

const SAMPLE = path.resolve(__dirname, '..', '..', 'samples', 'qwen3-tts-first-audio-cold-start.log');
// Its language servers are killed and the folder removed after the file's tests.
const storage = storageForFile('stage-lens-lsp-boots-load-');

test("the Tail view's load at arrival over two boots on a restarted clock: none in flight across boots, as explain says", async () => {
  const printed = JSON.parse(
    cliStdout(['explain', SAMPLE, '--format', 'json', '--target', 'e2e', '--quantile', 'p95']),
  ) as { load: LoadAtArrival[] };
  const lsp = await startLanguageServer(storage);
  const session = await lsp.importLog(SAMPLE);
  const { load } = await lsp.request('stageLens/loadAtArrival', {
    sessionId: session.id,
    target: 'e2e',
    quantile: 'p95',
  });
  assert.ok(load !== null);
  assert.deepEqual(
    load.buckets.map((b) => [b.minInFlight, b.maxInFlight, b.count, b.tailCount]),
    [[0, 0, 25, 2]],
  );
  assert.deepEqual([load.inFlight.all?.mean, load.inFlight.tail?.mean], [0, 0]);
  assert.equal(load.reading, 'sameLoad');
  // The JSON rounds to 4 decimals; the figures are the same.
  assert.deepEqual(
    JSON.parse(JSON.stringify(load, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 : v))),
    printed.load[0],
  );
});
