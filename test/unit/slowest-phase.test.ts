// The slowest phase and what a reader must know to weigh it, the same in the CLI's table and the
// side panel (one rule, slowest.ts): the largest phase of a stage's own work. A one-output
// stage's prefill+decode competes as one phase, named so; a downstream stage's input wait (or its
// queued time without the split) is the upstream stages' time seen again and is not ranked.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { readFileSync } from 'node:fs';
import { analysedLog } from './support/analysedLog';
import { tableReport } from '../../server/core/report/tableReport';
import { summaryModel } from '../../webview/sidePanel/summaryModel';
import { formatCompact } from '../../webview/shared/format';
import { summaryResultOf } from './support/summaryResult';

const ROOT = path.join(__dirname, '..', '..');

const analyse = (file: string): AnalysisSnapshot => analysedLog(path.join(ROOT, file));

/** The table's slowest-phase line and its caveats, without the parentheses. */
function cliSlowest(
  s: AnalysisSnapshot,
  roles: Readonly<Record<string, string>> = {},
): { line: string; caveats: string[] } {
  const lines = tableReport(s, { source: 'x', stageRoles: roles });
  const i = lines.findIndex((l) => l.startsWith('Slowest phase'));
  const caveats: string[] = [];
  for (let j = i + 1; lines[j]?.startsWith('  (') === true; j++) caveats.push((lines[j] as string).slice(3, -1));
  return { line: lines[i] as string, caveats };
}

/**
 * The log with `ms` added to stage 1's vllm_input_wait_ms and vllm_queued_ms on every request (the
 * split stays consistent): a codec that waits longer for its talker than the talker works.
 */
function withLongerInputWait(file: string, ms: number): Uint8Array {
  const text = readFileSync(path.join(ROOT, file), 'latin1');
  const longer = text.replace(
    /(\| vllm_(?:input_wait|queued)_ms +\| +\S+ \| +)([\d,.]+)( \|)/g,
    (_all, head: string, value: string, tail: string) =>
      `${head}${(Number(value.replace(/,/g, '')) + ms).toLocaleString('en-US', { minimumFractionDigits: 3 })}${tail}`,
  );
  return Buffer.from(longer, 'latin1');
}

const SAMPLE = 'samples/qwen3-tts-first-audio-cold-start.log';
const BEFORE_FIX = 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log';
const ONE_NUMBER =
  'two phases in one number: the stage emits one output, so its vllm_prefill_ms covers its decode steps';

describe('the slowest phase and its caveats', () => {
  for (const file of [SAMPLE, BEFORE_FIX]) {
    test(`${path.basename(file)}: the talker's prefill+decode, not the codec's wait for it; the CLI and the side panel agree`, () => {
      const snapshot = analyse(file);
      const combined = snapshot.stages[0]?.prefillDecodeMs?.p50 as number;
      // The codec's wait (59.87 / 94.34 ms at p50) is the talker's time seen from downstream.
      const codec = snapshot.stages[1];
      assert.ok((codec?.split.inputWaitMs?.p50 ?? codec?.split.queuedMs?.p50 ?? 0) > 50);
      const cli = cliSlowest(snapshot);
      assert.match(cli.line, /: stage 0 prefill\+decode \(one output\) [\d,.]+ ms$/);
      assert.deepEqual(cli.caveats, [`stage 0's prefill+decode is ${ONE_NUMBER}`]);
      const side = summaryModel(summaryResultOf(snapshot), 'p50', {}).slowest;
      assert.equal(side?.stageKey, '0');
      // Shown in the prefill cell ("1,068 +decode"): that cell is the one marked.
      assert.equal(side?.column, 'prefillMs');
      assert.equal(
        side?.text,
        `slowest phase (p50): stage 0 prefill+decode (one output) ${formatCompact(combined)} ms`,
      );
      assert.deepEqual(side?.caveats, cli.caveats);
    });
  }

  test('a downstream input wait larger than any work is not ranked: a caveat names it, in both views', () => {
    const snapshot = analysedLog(withLongerInputWait(SAMPLE, 5000));
    const wait = snapshot.stages[1]?.split.inputWaitMs?.p50 as number;
    assert.ok(wait > 5000, String(wait));
    const roles = { '0': 'talker', '1': 'code2wav' };
    const cli = cliSlowest(snapshot, roles);
    assert.match(cli.line, /: stage 0 · talker prefill\+decode \(one output\) [\d,.]+ ms$/);
    assert.deepEqual(cli.caveats, [
      `stage 0 · talker's prefill+decode is ${ONE_NUMBER}`,
      `not ranked, and larger: stage 1 · code2wav input wait ${wait.toLocaleString('en-US', { maximumFractionDigits: 0 })} ms, its wait for the upstream stages' output, not work of its own`,
    ]);
    const side = summaryModel(summaryResultOf(snapshot), 'p50', roles).slowest;
    assert.equal(side?.stageKey, '0');
    assert.equal(
      side?.caveats[1],
      `not ranked, and larger: stage 1 · code2wav input wait ${formatCompact(wait)} ms, its wait for the upstream stages' output, not work of its own`,
    );
  });

  test('without the input split, a downstream queued time holds the wait: not ranked, named as such', () => {
    const snapshot = analysedLog(withLongerInputWait(BEFORE_FIX, 5000));
    const queued = snapshot.stages[1]?.split.queuedMs?.p50 as number;
    assert.ok(queued > 5000, String(queued));
    assert.equal(snapshot.stages[1]?.split.inputWaitMs, undefined);
    const cli = cliSlowest(snapshot);
    assert.match(cli.line, /: stage 0 prefill\+decode \(one output\) /);
    assert.match(
      cli.caveats[1] ?? '',
      /^not ranked, and larger: stage 1 queued [\d,]+ ms, which includes its wait for the upstream stages' output \(the input-wait split is not printed\)$/,
    );
  });

  test('a phase of a stage with no one-output requests needs no caveat', () => {
    const snapshot = analyse('test/fixtures/upstream-rendered/qwen3-omni-three-stage-transfers.log');
    assert.match(cliSlowest(snapshot).line, /: stage 1 decode 25,282 ms$/);
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
