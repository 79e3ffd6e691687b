// The slowest phase and what a reader must know to weigh it, the same in the CLI's table and the
// side panel (one rule, slowest.ts): a downstream stage's queued time or input wait is its wait
// for upstream output, and a one-output stage's larger prefill+decode is not ranked.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { analysedLog } from './support/analysedLog';
import { tableReport } from '../../server/core/report/tableReport';
import { summaryModel } from '../../webview/sidePanel/summaryModel';
import { formatCompact } from '../../webview/shared/format';
import { summaryResultOf } from './support/summaryResult';

const ROOT = path.join(__dirname, '..', '..');

const analyse = (file: string): AnalysisSnapshot => analysedLog(path.join(ROOT, file));

/** The table's slowest-phase line and its caveats, without the parentheses. */
function cliSlowest(s: AnalysisSnapshot): { line: string; caveats: string[] } {
  const lines = tableReport(s, { source: 'x' });
  const i = lines.findIndex((l) => l.startsWith('Slowest phase'));
  const caveats: string[] = [];
  for (let j = i + 1; lines[j]?.startsWith('  (') === true; j++) caveats.push((lines[j] as string).slice(3, -1));
  return { line: lines[i] as string, caveats };
}

const CASES = [
  {
    file: 'samples/qwen3-tts-first-audio-cold-start.log',
    line: /stage 1 input wait 59\.87 ms$/,
    first: "stage 1's input wait is its wait for the upstream stages' output, not work of its own",
  },
  {
    file: 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log',
    line: /stage 1 queued 94\.34 ms$/,
    first:
      "stage 1's queued time includes its wait for the upstream stages' output: the input-wait split is not printed",
  },
] as const;

describe('the slowest phase and its caveats', () => {
  for (const c of CASES) {
    test(`${path.basename(c.file)}: the CLI and the side panel name the same phase and say the same caveats`, () => {
      const snapshot = analyse(c.file);
      const cli = cliSlowest(snapshot);
      assert.match(cli.line, c.line);
      assert.equal(cli.caveats[0], c.first);
      assert.match(cli.caveats[1] ?? '', /^not ranked, and larger: stage 0 prefill\+decode \(one output\) [\d,]+ ms/);
      const side = summaryModel(summaryResultOf(snapshot), 'p50', {}).slowest;
      assert.ok(side);
      assert.equal(side.stageKey, '1');
      // The same sentences; the numbers in each view's own format.
      assert.equal(side.caveats[0], c.first);
      const combined = snapshot.stages[0]?.prefillDecodeMs?.p50 as number;
      assert.equal(
        side.caveats[1],
        `not ranked, and larger: stage 0 prefill+decode (one output) ${formatCompact(combined)} ms, two phases in one number`,
      );
      assert.equal(side.caveats.length, cli.caveats.length);
    });
  }

  test("with the stages' roles known, the CLI and the side panel name each stage with its role in the same words", () => {
    const snapshot = analyse('samples/qwen3-tts-first-audio-cold-start.log');
    const roles = { '0': 'talker', '1': 'code2wav' };
    const lines = tableReport(snapshot, { source: 'x', stageRoles: roles });
    const i = lines.findIndex((l) => l.startsWith('Slowest phase'));
    assert.match(lines[i] as string, /: stage 1 · code2wav input wait 59\.87 ms$/);
    const expected = [
      "stage 1 · code2wav's input wait is its wait for the upstream stages' output, not work of its own",
      /^not ranked, and larger: stage 0 · talker prefill\+decode \(one output\) [\d,]+ ms, two phases in one number$/,
    ] as const;
    assert.equal((lines[i + 1] as string).slice(3, -1), expected[0]);
    assert.match((lines[i + 2] as string).slice(3, -1), expected[1]);
    const side = summaryModel(summaryResultOf(snapshot), 'p50', roles).slowest;
    assert.match(side?.text ?? '', /: stage 1 · code2wav input wait /);
    assert.equal(side?.caveats[0], expected[0]);
    assert.match(side?.caveats[1] ?? '', expected[1]);
  });

  test('a first stage, or a phase larger than every prefill+decode, has no caveat', () => {
    const snapshot = analyse('test/fixtures/upstream-rendered/qwen3-omni-three-stage-transfers.log');
    assert.deepEqual(cliSlowest(snapshot).caveats, []);
    assert.deepEqual(summaryModel(summaryResultOf(snapshot), 'p50', {}).slowest?.caveats, []);
  });
});

describe('audio per stage', () => {
  test('a talker that hands codes to its codec reads "no audio", not a measured 0 s; the codec keeps its seconds', () => {
    const snapshot = analyse('test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');
    const model = summaryModel(summaryResultOf(snapshot), 'p50', {});
    const talker = model.rows.find((r) => r.key === '0')?.cells['field:audio_duration_s'];
    assert.deepEqual([talker?.text, talker?.state, talker?.value], ['no audio', 'empty', null]);
    assert.match(talker?.title ?? '', /^audio_duration_s is 0 on all 6 requests of this stage: it hands its output/);
    const codec = model.rows.find((r) => r.key === '1')?.cells['field:audio_duration_s'];
    const seconds = snapshot.stages.find((s) => s.stageKey === '1')?.fields['audio_duration_s']?.p50 as number;
    assert.ok(seconds > 0);
    assert.deepEqual([codec?.state, codec?.value], ['measured', seconds]);
  });
});
