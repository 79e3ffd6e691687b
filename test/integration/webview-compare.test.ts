// The Compare Sessions panel in the built bundle in headless Chromium (real HTML shell, strict
// CSP), answered as ComparePanel answers it, on two upstream-rendered Qwen3-TTS logs (six
// requests each) under session titles as long as a launched demo's. At an editor's common
// widths the header keeps its two columns: a run's line that wraps stays beside its role,
// and "6 requests" stays one phrase. Screenshots go to test-output/webview/.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadRun } from '../../server/capture/compareInput';
import { compareRuns } from '../../server/core/compare';
import type { CompareResult } from '../../server/protocol';
import { REPO_ROOT, WebviewHarness } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';

const UPSTREAM = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered');
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
const BASELINE = 'Qwen3-TTS-12Hz-1.7B-CustomVoice (demo, cold-start) · qwen3_tts.yaml · Dec 1 14:02';
const CANDIDATE =
  'Qwen3-TTS-12Hz-1.7B-CustomVoice (demo, talker first audio) · qwen3_tts_talker_first_audio.yaml · Dec 1 15:47';

/** Where a run's line lies against its role, read in the page (no DOM types in Node tests). */
interface RunGeometry {
  readonly text: string;
  readonly roleRight: number;
  /** Left edge of each line box of the run's text. */
  readonly lineLefts: number[];
  /** Line boxes of the "6 requests" phrase. */
  readonly countLines: number;
}

const geometryOf = (testId: string): string => `(() => {
  const line = document.querySelector('[data-testid="${testId}"]');
  const role = line.parentElement.querySelector('.role');
  const all = document.createRange();
  all.selectNodeContents(line);
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  let countLines = 0;
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
    const at = n.data.indexOf('6 requests');
    if (at < 0) continue;
    const r = document.createRange();
    r.setStart(n, at);
    r.setEnd(n, at + '6 requests'.length);
    countLines = new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size;
  }
  return {
    text: line.textContent,
    roleRight: role.getBoundingClientRect().right,
    lineLefts: [...all.getClientRects()].filter((b) => b.width > 0).map((b) => b.left),
    countLines,
  };
})()`;

let harness: WebviewHarness;
let result: CompareResult;

before(async () => {
  const [baseline, candidate] = await Promise.all(
    ['qwen3tts-talker-first-audio-before-fix.log', 'qwen3tts-talker-first-audio-after-fix.log'].map((f) =>
      loadRun(path.join(UPSTREAM, f), { excludeCold: false }),
    ),
  );
  result = { report: compareRuns(baseline!, candidate!), baselineLabel: BASELINE, candidateLabel: CANDIDATE };
  // The compare panel asks nothing of a session: the harness's session data is not read.
  harness = await WebviewHarness.start({} as SyntheticSession);
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await harness?.close();
});

describe('compare panel header', () => {
  for (const width of [800, 1200]) {
    test(`at ${width} px each run's line stays beside its role, and "6 requests" on one line`, async () => {
      const page = await harness.openCompare(result, { width, height: 700 });
      try {
        await page.getByTestId('compare-runs').waitFor();
        for (const [testId, label] of [
          ['compare-baseline', BASELINE],
          ['compare-candidate', CANDIDATE],
        ] as const) {
          const g = (await page.evaluate(geometryOf(testId))) as RunGeometry;
          assert.equal(g.text, `${label} · 6 requests`);
          assert.ok(g.lineLefts.length > 0, testId);
          for (const left of g.lineLefts)
            assert.ok(
              left >= g.roleRight,
              `${testId} at ${width} px: a line starts at ${left}, under the role (to ${g.roleRight})`,
            );
          assert.equal(g.countLines, 1, `${testId} at ${width} px: "6 requests" is cut`);
        }
        // The long candidate title does wrap at 800 px: the case the columns are for.
        if (width === 800) {
          const g = (await page.evaluate(geometryOf('compare-candidate'))) as RunGeometry;
          assert.ok(g.lineLefts.length > 1, JSON.stringify(g));
        }
        await page.screenshot({ path: path.join(SHOTS, `compare-${width}.png`) });
        assert.deepEqual(await page.evaluate('window.__cspViolations'), []);
      } finally {
        await page.context().close();
      }
    });
  }
});
