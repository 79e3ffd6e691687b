// The Compare panel's header in the built bundle in headless Chromium, on one log of two server
// boots (the upstream-rendered Qwen3-TTS log before the codec TTFT fix, then the one after it,
// appended after a restart) compared boot 1 against boot 2, as the language server answers it:
// each run says the boot it is after its name, in the title and in its line; a run compared whole
// says none. A merged log's side names its server too.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { loadRun } from '../../server/capture/compareInput';
import { compareRuns } from '../../server/core/compare';
import type { CompareResult } from '../../server/protocol';
import { runNameOfPath, runNameWithBoot } from '../../server/shared';
import { WebviewHarness } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { bootsLog } from './support/bootLog';

const TTS_MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-webview-compare-boots-'));
const log = path.join(dir, 'server.log');
let harness: WebviewHarness;

/** The result `stageLens/compare` answers for `log` with these boots (null: every boot). */
async function comparison(baselineBoot: number | null, candidateBoot: number | null): Promise<CompareResult> {
  const [baseline, candidate] = await Promise.all(
    [baselineBoot, candidateBoot].map((boot) => loadRun(log, { excludeCold: false, boot })),
  );
  return {
    report: compareRuns(baseline!, candidate!),
    baselineRun: runNameWithBoot(runNameOfPath(log), baselineBoot),
    candidateRun: runNameWithBoot(runNameOfPath(log), candidateBoot),
  };
}

before(async () => {
  fs.writeFileSync(
    log,
    bootsLog([
      { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-before-fix.log' },
      { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
    ]),
  );
  // The compare panel asks nothing of a session: the harness's session data is not read.
  harness = await WebviewHarness.start({} as SyntheticSession);
});

after(async () => {
  await harness?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function header(result: CompareResult): Promise<{ title: string; baseline: string; candidate: string }> {
  const page = await harness.openCompare(result, { width: 1200, height: 700 });
  try {
    await page.getByTestId('compare-runs').waitFor();
    const text = (id: string) => page.getByTestId(id).textContent();
    return {
      title: (await text('compare-title')) ?? '',
      baseline: (await text('compare-baseline')) ?? '',
      candidate: (await text('compare-candidate')) ?? '',
    };
  } finally {
    await page.context().close();
  }
}

test('one log, boot 1 vs boot 2: the header names each boot; a run compared whole names none', async () => {
  assert.deepEqual(await header(await comparison(1, 2)), {
    title: 'Stage Lens: server.log (boot 1) → server.log (boot 2)',
    baseline: 'server.log (boot 1) · 6 requests · logged 10-19 07:12:04 – 07:12:12',
    candidate: 'server.log (boot 2) · 6 requests · logged 10-19 07:12:05 – 07:12:12',
  });
  assert.deepEqual(await header(await comparison(null, 2)), {
    title: 'Stage Lens: server.log → server.log (boot 2)',
    baseline: 'server.log · 12 requests · logged 10-19 07:12:04 – 07:12:12',
    candidate: 'server.log (boot 2) · 6 requests · logged 10-19 07:12:05 – 07:12:12',
  });
});

test('a merged log, one pod against a boot of the other: the header names each side by its server (and boot)', async () => {
  const merged = path.resolve(__dirname, '..', 'fixtures', 'logs', 'merged-kubectl-two-servers-restart.log');
  const pod0 = 'pod/vllm-omni-0/vllm';
  const pod1 = 'pod/vllm-omni-1/vllm';
  const [baseline, candidate] = await Promise.all([
    loadRun(merged, { excludeCold: false, server: pod0 }),
    loadRun(merged, { excludeCold: false, server: pod1, boot: 2 }),
  ]);
  const name = runNameOfPath(merged);
  const shown = await header({
    report: compareRuns(baseline!, candidate!),
    baselineRun: runNameWithBoot(name, null, pod0),
    candidateRun: runNameWithBoot(name, 2, pod1),
  });
  assert.equal(
    shown.title,
    `Stage Lens: merged-kubectl-two-servers-restart.log (server ${pod0}) → merged-kubectl-two-servers-restart.log (boot 2, server ${pod1})`,
  );
  assert.match(
    shown.baseline,
    /^merged-kubectl-two-servers-restart\.log \(server pod\/vllm-omni-0\/vllm\) · 6 requests · /,
  );
  assert.match(
    shown.candidate,
    /^merged-kubectl-two-servers-restart\.log \(boot 2, server pod\/vllm-omni-1\/vllm\) · 3 requests · /,
  );
});
