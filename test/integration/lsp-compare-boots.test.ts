// Compare in the editor on one log of two server boots (a server restarted with a changed deploy
// config, appending to one log: the upstream-rendered Qwen3-TTS log before the codec TTFT fix,
// then the one after it), imported through the language server (dist/server.js over stdio):
// `stageLens/runBoots` lists its boots, and `stageLens/compare` with a boot per side reads each
// side as `stage-lens compare server.log server.log --baseline-boot 1 --candidate-boot 2` does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { cliStdout } from './support/cliProcess';
import { bootsLogFile } from './support/bootLog';
import { compareJson } from '../../server/core/compare';

const TTS_MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const { log } = bootsLogFile('stage-lens-lsp-compare-boots-', 'server.log', [
  { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-before-fix.log' },
  { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
]);
const storage = storageForFile('stage-lens-lsp-compare-boots-storage-');

interface CliSide {
  requestCount: number;
  boot?: number;
}
interface CliJson {
  baseline: CliSide;
  candidate: CliSide;
  metrics: { scope: string; metric: string; baseline: { p50: number | null }; candidate: { p50: number | null } }[];
}

test(
  'an imported two-boot log, boot 1 vs boot 2: the boots listed, each side its boot, as the CLI compares',
  { timeout: 120_000 },
  async () => {
    const expected = JSON.parse(
      cliStdout(['compare', log, log, '--baseline-boot', '1', '--candidate-boot', '2', '--format', 'json']),
    ) as CliJson;

    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    const target = { sessionId: session.id };
    // The session's boots and the log file's, for the compare command to offer.
    const boots = [
      { boot: 1, requests: 6, model: TTS_MODEL },
      { boot: 2, requests: 6, model: TTS_MODEL },
    ];
    assert.deepEqual((await lsp.request('stageLens/runBoots', target)).boots, boots);
    assert.deepEqual((await lsp.request('stageLens/runBoots', { path: log })).boots, boots);

    const result = await lsp.request('stageLens/compare', {
      baseline: target,
      candidate: target,
      baselineBoot: 1,
      candidateBoot: 2,
    });
    assert.deepEqual(result.baselineRun, { name: 'server.log', imported: true, detail: log, boot: 1 });
    assert.deepEqual(result.candidateRun, { name: 'server.log', imported: true, detail: log, boot: 2 });
    const { baseline, candidate } = result.report;
    assert.deepEqual(
      [baseline.requestCount, baseline.boot, candidate.requestCount, candidate.boot],
      [expected.baseline.requestCount, 1, expected.candidate.requestCount, 2],
    );
    assert.deepEqual([baseline.requestCount, candidate.requestCount], [6, 6]);
    const p50s = (
      metrics: readonly {
        scope: string;
        metric: string;
        baseline: { p50: number | null };
        candidate: { p50: number | null };
      }[],
    ) => metrics.map((m) => [m.scope, m.metric, m.baseline.p50, m.candidate.p50]);
    // Every metric's p50 on each side, the CLI's at its JSON's precision (e.g. stage 0's generation time 1112.505 vs 1275.336 ms; the codec TTFT
    // the fix made recorded: no p50 in boot 1, never 0).
    assert.deepEqual(p50s(compareJson(result.report, []).metrics), p50s(expected.metrics));
    const gen = compareJson(result.report, []).metrics.find((m) => m.scope === '0' && m.metric === 'genTime');
    assert.deepEqual([gen?.baseline.p50, gen?.candidate.p50], [1112.505, 1275.336]);
    const ttft = result.report.metrics.find((m) => m.scope === '1' && m.metric === 'ttft');
    assert.equal(ttft?.baseline.p50, null);
    assert.notEqual(ttft?.candidate.p50, null);

    // The log file on disk, one boot against the whole session; a boot the log does not have is refused with the boots it has.
    const mixed = await lsp.request('stageLens/compare', {
      baseline: { path: log },
      candidate: target,
      baselineBoot: 2,
    });
    assert.deepEqual([mixed.report.baseline.requestCount, mixed.report.candidate.requestCount], [6, 12]);
    assert.deepEqual(mixed.baselineRun, { name: 'server.log', imported: false, detail: log, boot: 2 });
    assert.deepEqual(mixed.candidateRun, { name: 'server.log', imported: true, detail: log });
    await assert.rejects(
      lsp.request('stageLens/compare', { baseline: target, candidate: target, baselineBoot: 3 }),
      /the log has no boot 3: its boots with requests are 1 \(6 requests\) and 2 \(6 requests\)/,
    );
  },
);
