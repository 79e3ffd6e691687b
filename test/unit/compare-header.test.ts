// The Compare panel's header (DOM-free): run names from real sessions and paths, the title and
// each run's facts over a comparison of two upstream-rendered logs. A file name is one piece
// (never broken at its hyphens), "imported" is not repeated, and an import's time never shows:
// a run's time is its log's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadRun } from '../../server/capture/compareInput';
import { compareRuns } from '../../server/core/compare/compareRuns';
import type { ComparisonReport } from '../../server/core/compare/types';
import { runNameOfPath, runNameOfSession } from '../../server/core/compare/runName';
import { baseName } from '../../server/core/baseName';
import { importedLogTitle, logSpanText } from '../../server/core/sessionName';
import { compareHeading, middleCut, namePieces, WORD_MAX } from '../../webview/compare/header';
import type { CompareHeading, RunLine } from '../../webview/compare/header';

const UPSTREAM = path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered');
const BEFORE = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-before-fix.log');
const AFTER = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log');

async function report(): Promise<ComparisonReport> {
  const [b, c] = await Promise.all([BEFORE, AFTER].map((f) => loadRun(f, { excludeCold: false })));
  return compareRuns(b!, c!);
}

/** Sessions as the registry lists them (titled by their files and log spans). */
const importedBefore = {
  kind: 'import',
  title: importedLogTitle({
    path: BEFORE,
    deployConfig: null,
    logSpan: { first: '10-19 07:12:04', last: '10-19 07:12:12' },
  }),
  description: BEFORE,
  deployConfig: null,
};
const importedAfter = {
  kind: 'import',
  title: importedLogTitle({
    path: AFTER,
    deployConfig: null,
    logSpan: { first: '10-19 07:12:05', last: '10-19 07:12:12' },
  }),
  description: AFTER,
  deployConfig: null,
};
const LIVE_TITLE = 'Qwen3-TTS-12Hz-1.7B-CustomVoice (demo, cold-start) · qwen3_tts.yaml · Dec 1 14:02';
const live = {
  kind: 'launch',
  title: LIVE_TITLE,
  description: 'stage-lens simulate --scenario cold-start',
  deployConfig: '/home/me/deploy/qwen3_tts.yaml',
};

const factTexts = (l: RunLine): string[] => l.facts.map((f) => f.text);
const allText = (h: CompareHeading): string =>
  [h.title, h.baseline.hover, h.candidate.hover, ...h.baseline.facts, ...h.candidate.facts]
    .map((x) => (typeof x === 'string' ? x : `${x.text} ${x.title ?? ''}`))
    .join('\n');

test('two imported logs with long names: whole file names, "imported" not said, the logs\' own times', async () => {
  const h = compareHeading(
    { baseline: runNameOfSession(importedBefore), candidate: runNameOfSession(importedAfter) },
    await report(),
  );
  assert.equal(
    h.title,
    'Stage Lens: qwen3tts-talker-first-audio-before-fix.log → qwen3tts-talker-first-audio-after-fix.log',
  );
  // One piece each: the line may break before or after the name, never inside it.
  assert.deepEqual(h.baseline.pieces, [
    { text: 'qwen3tts-talker-first-audio-before-fix.log', spaceBefore: true, cut: false },
  ]);
  assert.deepEqual(h.candidate.pieces, [
    { text: 'qwen3tts-talker-first-audio-after-fix.log', spaceBefore: true, cut: false },
  ]);
  assert.deepEqual(factTexts(h.baseline), ['6 requests', 'logged 10-19 07:12:04 – 07:12:12']);
  assert.deepEqual(factTexts(h.candidate), ['6 requests', 'logged 10-19 07:12:05 – 07:12:12']);
  assert.equal(h.baseline.hover, `qwen3tts-talker-first-audio-before-fix.log\n${BEFORE}`);
  const text = allText(h);
  assert.doesNotMatch(text, /imported/);
  // The log span is a fact of the run, said once, not in its name too.
  assert.equal(text.split('logged 10-19 07:12:04').length, 2);
});

test('the same log imported twice: told apart by the ordinal of the second import', async () => {
  const h = compareHeading(
    {
      baseline: runNameOfSession(importedBefore),
      candidate: runNameOfSession({ ...importedBefore, importOrdinal: 2 }),
    },
    await report(),
  );
  assert.equal(
    h.title,
    'Stage Lens: qwen3tts-talker-first-audio-before-fix.log → qwen3tts-talker-first-audio-before-fix.log (2)',
  );
  assert.deepEqual(
    h.candidate.pieces.map((p) => p.text),
    ['qwen3tts-talker-first-audio-before-fix.log', '(2)'],
  );
});

test('a live session vs an imported log: the live title whole, "imported" said of the import only', async () => {
  const withDeploy = { ...importedBefore, deployConfig: '/home/me/deploy/qwen3_tts.yaml' };
  const h = compareHeading(
    { baseline: runNameOfSession(live), candidate: runNameOfSession(withDeploy) },
    await report(),
  );
  assert.equal(h.title, `Stage Lens: ${LIVE_TITLE} → qwen3tts-talker-first-audio-before-fix.log · qwen3_tts.yaml`);
  // The live title breaks between its words only: each word is a piece.
  assert.deepEqual(
    h.baseline.pieces.map((p) => p.text),
    ['Qwen3-TTS-12Hz-1.7B-CustomVoice', '(demo,', 'cold-start)', '·', 'qwen3_tts.yaml', '·', 'Dec', '1', '14:02'],
  );
  assert.deepEqual(factTexts(h.baseline), ['6 requests', 'logged 10-19 07:12:04 – 07:12:12']);
  assert.deepEqual(factTexts(h.candidate), ['imported', '6 requests', 'logged 10-19 07:12:05 – 07:12:12']);
  assert.equal(h.baseline.hover, `${LIVE_TITLE}\nstage-lens simulate --scenario cold-start`);
});

test('while it loads (no report yet): names, and "imported" only for the one import', () => {
  const h = compareHeading({ baseline: runNameOfPath(BEFORE), candidate: runNameOfSession(importedAfter) }, null);
  assert.equal(
    h.title,
    'Stage Lens: qwen3tts-talker-first-audio-before-fix.log → qwen3tts-talker-first-audio-after-fix.log',
  );
  assert.deepEqual(factTexts(h.baseline), []);
  assert.deepEqual(factTexts(h.candidate), ['imported']);
});

test('a name longer than a line: cut in its middle (both ends kept), a long path split after its separators', () => {
  const long = 'qwen3-omni-30b-a3b-instruct-three-stage-transfers-talker-first-audio-after-fix.log';
  assert.equal(long.length, 82);
  assert.deepEqual(namePieces(long), [
    { text: 'qwen3-omni-30b-a3b-instr…rst-audio-after-fix.log', spaceBefore: true, cut: true },
  ]);
  assert.equal(middleCut(long, WORD_MAX).length, WORD_MAX);
  assert.equal(middleCut('abcdefghij', 5), 'ab…ij');
  assert.equal(middleCut('abcdefghij', 6), 'abc…ij');
  assert.equal(middleCut('abcdefghij', 10), 'abcdefghij');
  const pathPieces = namePieces('/mnt/shared/benchmarks/2024-10-19/qwen3tts-talker-first-audio-before-fix.log');
  assert.deepEqual(
    pathPieces.map((p) => [p.text, p.spaceBefore]),
    [
      ['/', true],
      ['mnt/', false],
      ['shared/', false],
      ['benchmarks/', false],
      ['2024-10-19/', false],
      ['qwen3tts-talker-first-audio-before-fix.log', false],
    ],
  );
});

test('log span: the day once when both ends are on it, both days across midnight, one moment alone', () => {
  assert.equal(logSpanText({ first: '10-19 07:12:04', last: '10-19 07:12:12' }), '10-19 07:12:04 – 07:12:12');
  assert.equal(logSpanText({ first: '12-31 23:59:58', last: '01-01 00:00:03' }), '12-31 23:59:58 – 01-01 00:00:03');
  assert.equal(logSpanText({ first: '10-19 07:12:04', last: '10-19 07:12:04' }), '10-19 07:12:04');
});

test('run names: a file or folder by its name (Windows path, trailing separator), an import with its deploy file', () => {
  assert.deepEqual(runNameOfPath('C:\\logs\\run 2\\before-fix.log'), {
    name: 'before-fix.log',
    imported: false,
    detail: 'C:\\logs\\run 2\\before-fix.log',
  });
  assert.equal(baseName('/data/sessions/s-17/'), 's-17');
  assert.equal(baseName('/'), '/');
  assert.deepEqual(runNameOfSession({ ...importedAfter, deployConfig: 'C:\\deploy\\qwen3_tts.yaml' }), {
    name: 'qwen3tts-talker-first-audio-after-fix.log · qwen3_tts.yaml',
    imported: true,
    detail: AFTER,
  });
});
