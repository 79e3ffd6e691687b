// Compare in the editor on one log of two server boots (a server restarted with a changed deploy
// config, appending to one log: the upstream-rendered Qwen3-TTS log before the codec TTFT fix,
// then the one after it), imported through the language server (dist/server.js over stdio):
// `stageLens/runBoots` lists its boots, and `stageLens/compare` with a boot per side reads each
// side as `stage-lens compare server.log server.log --baseline-boot 1 --candidate-boot 2` does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { buildBundles } from './support/buildBundles';
import { bootsLog } from './support/bootLog';
import { compareJson } from '../../server/core/compare';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const TTS_MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-lsp-compare-boots-'));
const storage = path.join(dir, 'storage');
const log = path.join(dir, 'server.log');

before(() => {
  buildBundles('cli');
  fs.writeFileSync(
    log,
    bootsLog([
      { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-before-fix.log' },
      { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
    ]),
  );
});
after(() => {
  killLanguageServers();
  fs.rmSync(dir, { recursive: true, force: true });
});

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
    const cli = spawnSync(
      process.execPath,
      [CLI, 'compare', log, log, '--baseline-boot', '1', '--candidate-boot', '2', '--format', 'json'],
      { encoding: 'utf8', timeout: 120_000, cwd: ROOT },
    );
    assert.equal(cli.status, 0, cli.stderr);
    const expected = JSON.parse(cli.stdout) as CliJson;

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
