// Load at arrival in the editor and in `stage-lens explain` on the same log: the Tail view's model
// (loadFigures, over the language server's answer on a real connection) shows the figures explain
// prints, the mean others in flight overall and in each stage, all against the tail, with the same
// words. A simulated Qwen3-Omni run at 8 requests/s, so that requests overlap and a mean is not
// a median.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { writeFileSync } from 'node:fs';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { cliStdout } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';
import { loadFigures } from '../../webview/shared/tailModel';
import { stageRolesOfSession } from '../../server/shared';
import type { LoadAtArrival } from '../../server/protocol';

const dir = tempFolder('stage-lens-load-agree-');
const log = path.join(dir, 'server.log');
writeFileSync(
  log,
  cliStdout([
    'simulate',
    '--scenario',
    'qwen3-omni',
    '--requests',
    '60',
    '--rps',
    '8',
    '--seed',
    '7',
    '--speed',
    '1000',
  ]),
);
const storage = storageForFile('stage-lens-load-agree-storage-');

test("the Tail view's load at arrival is explain's: the same means, overall and per stage, in the same words", async () => {
  const printed = cliStdout(['explain', log]).split('\n');
  const json = JSON.parse(cliStdout(['explain', log, '--format', 'json'])) as { load: LoadAtArrival[] };
  const first = json.load[0];
  assert.ok(first !== undefined, 'explain prints a load at arrival');

  const lsp = await startLanguageServer(storage);
  try {
    const session = await lsp.importLog(log);
    const { load } = await lsp.request('stageLens/loadAtArrival', {
      sessionId: session.id,
      target: first.target,
      quantile: first.quantile,
    });
    assert.ok(load !== null);
    const figures = loadFigures(load, stageRolesOfSession(session));

    // Overall: explain's line, the editor's sentence.
    const inFlight = printed.find((l) => l.startsWith('  mean in flight at arrival'))?.trim();
    assert.equal(`${figures.inFlight[0]?.toLowerCase()}${figures.inFlight.slice(1)}`, inFlight);
    // Requests overlap here: the means are no medians (the figure the view showed before).
    assert.ok(load.inFlight.all !== null && load.inFlight.all.mean !== load.inFlight.all.p50);
    assert.match(inFlight ?? '', /^mean in flight at arrival, all \/ tail: \d+\.\d \/ \d+\.\d$/);

    // Per stage: explain's line, cell for cell.
    const stages = printed.find((l) => l.startsWith('  mean in each stage at arrival'))?.trim();
    assert.equal(figures.stagesTitle, 'Mean in each stage at arrival, all / tail');
    assert.equal(
      `mean in each stage at arrival, all / tail: ${figures.stages.map((s) => `${s.stage} ${s.all} / ${s.tail}`).join(' · ')}`,
      stages,
    );
    assert.deepEqual(
      figures.stages.map((s) => s.stage),
      ['stage 0 · thinker', 'stage 1 · talker', 'stage 2 · code2wav'],
    );
  } finally {
    lsp.child.kill('SIGTERM');
  }
});
