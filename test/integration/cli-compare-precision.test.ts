// compare of an INFO-level log ([OmniTiming] lines only: seconds with 2 decimals) against a
// DEBUG-level one (stats tables: ms with 3 decimals), run as the built dist/cli.js: every
// output format says which run has the coarse figures, of which metrics, and the step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

// The CLI runs in this folder, so that the runs are named as given (info.log, not its path).
let dir = '';

function simulate(name: string, seed: number, debug: boolean): void {
  const r = cli(
    ['simulate', '--scenario', 'qwen3-tts', '--requests', '30', '--seed', String(seed), '--speed', '1000'].concat(
      ['--fixed-clock', '--port', '0'],
      debug ? ['--debug-tables'] : [],
    ),
    { cwd: dir },
  );
  assert.equal(r.status, 0, r.stderr);
  fs.writeFileSync(path.join(dir, name), r.stdout);
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-compare-precision-'));
  simulate('info.log', 1, false);
  simulate('info-2.log', 2, false);
  simulate('debug.log', 2, true);
  // The same [OmniTiming] lines in a log with a line at DEBUG (the simulator's own, after its
  // first line): a server that logged at DEBUG and printed no stats table, not one at INFO.
  const debugLine = fs
    .readFileSync(path.join(dir, 'debug.log'), 'utf8')
    .split('\n')
    .find((l) => l.includes(' DEBUG ') && l.includes('[Orchestrator]'));
  assert.ok(debugLine !== undefined);
  const [first, ...rest] = fs.readFileSync(path.join(dir, 'info.log'), 'utf8').split('\n');
  fs.writeFileSync(path.join(dir, 'info-debug-lines.log'), [first, debugLine, ...rest].join('\n'));
});

after(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

const note = (coarse: string, fine: string, side: string, other: string): string =>
  `Different precision: the ${side} (${coarse}) has stage 0 · talker gen time, stage 1 · code2wav gen time and request e2e ` +
  `from [OmniTiming] lines (every value; INFO level: seconds with 2 decimals, a 10 ms step), the ${other} (${fine}) ` +
  `from its stats tables (ms with 3 decimals). A difference under 10 ms in them is within the ${side}'s rounding, not a change.`;

test('INFO-level baseline against a DEBUG-level candidate: the note names the baseline and its 10 ms step, in JSON, table and Markdown', () => {
  assert.ok(!fs.readFileSync(path.join(dir, 'info.log'), 'utf8').includes('[StageRequestStats]'));
  const expected = note('info.log', 'debug.log', 'baseline', 'candidate');

  const json = cli(['compare', 'info.log', 'debug.log', '--format', 'json'], { cwd: dir });
  assert.equal(json.status, 0, json.stderr);
  const notes = (JSON.parse(json.stdout) as { notes: string[] }).notes;
  assert.equal(notes[0], expected);
  assert.equal(notes.filter((n) => n.startsWith('Different precision')).length, 1);

  const table = cli(['compare', 'info.log', 'debug.log'], { cwd: dir });
  assert.equal(table.status, 0, table.stderr);
  assert.ok(table.stdout.includes(`\nNotes\n  - ${expected}\n`), table.stdout);

  const markdown = cli(['compare', 'info.log', 'debug.log', '--format', 'markdown'], { cwd: dir });
  assert.equal(markdown.status, 0, markdown.stderr);
  assert.ok(markdown.stdout.includes(`\n- ${expected.replace('[OmniTiming]', '\\[OmniTiming\\]')}\n`), markdown.stdout);
});

test('the other way round the candidate is named; runs of one precision get no such note', () => {
  const swapped = cli(['compare', 'debug.log', 'info.log', '--format', 'json'], { cwd: dir });
  assert.equal(swapped.status, 0, swapped.stderr);
  assert.equal(
    (JSON.parse(swapped.stdout) as { notes: string[] }).notes[0],
    note('info.log', 'debug.log', 'candidate', 'baseline'),
  );
  for (const [a, b] of [
    ['info.log', 'info-2.log'],
    ['debug.log', 'debug.log'],
  ]) {
    const same = cli(['compare', a!, b!, '--format', 'json'], { cwd: dir });
    assert.equal(same.status, 0, same.stderr);
    const notes = (JSON.parse(same.stdout) as { notes: string[] }).notes;
    assert.ok(!notes.some((n) => n.includes('precision')), `${a} vs ${b}: ${notes.join(' | ')}`);
  }
});

test('[OmniTiming] lines only in a log with DEBUG lines: not called INFO level, in the note, the cells and the findings', () => {
  const json = cli(['compare', 'debug.log', 'info-debug-lines.log', '--format', 'json'], { cwd: dir });
  assert.equal(json.status, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as { notes: string[]; candidate: { debugLines?: boolean } };
  assert.equal(
    doc.notes[0],
    'Different precision: the candidate (info-debug-lines.log) has stage 0 · talker gen time, stage 1 · code2wav gen time and request e2e ' +
      'from [OmniTiming] lines (every value; seconds with 2 decimals, a 10 ms step), the baseline (debug.log) ' +
      "from its stats tables (ms with 3 decimals). A difference under 10 ms in them is within the candidate's rounding, not a change.",
  );
  assert.equal(doc.candidate.debugLines, true);

  const table = cli(['compare', 'debug.log', 'info-debug-lines.log'], { cwd: dir });
  assert.equal(table.status, 0, table.stderr);
  const lines = table.stdout.split('\n');
  assert.ok(
    lines.includes(
      '  stage 1 · code2wav queued: measured in the baseline only (candidate: none of 30 measured: 30 no stage table ([OmniTiming] only))',
    ),
    table.stdout,
  );
  assert.ok(
    lines.includes(
      '  not checkable [info] prefill-covers-decode (stage 0): 30 requests in the baseline; not checkable in the candidate: it printed no stats tables, only [OmniTiming] lines, though its log has DEBUG lines',
    ),
    table.stdout,
  );
  assert.ok(!table.stdout.includes('INFO'), table.stdout);

  const markdown = cli(['compare', 'debug.log', 'info-debug-lines.log', '--format', 'markdown'], { cwd: dir });
  assert.equal(markdown.status, 0, markdown.stderr);
  assert.ok(
    markdown.stdout.includes(
      '- stage 1 · code2wav queued: measured in the baseline only (candidate: none of 30 measured: 30 no stage table (\\[OmniTiming\\] only))\n',
    ),
    markdown.stdout,
  );
  assert.ok(!markdown.stdout.includes('INFO'), markdown.stdout);

  // A rule on a metric the candidate lost says why in the same words.
  const rule = cli(['compare', 'debug.log', 'info-debug-lines.log', '--fail-if', 'stage1.queued.p50 > 1000ms'], {
    cwd: dir,
  });
  assert.equal(rule.status, 1, rule.stderr);
  assert.ok(
    rule.stderr.includes(
      'FAIL NOT MEASURED  stage1.queued.p50 > 1000ms: stage 1 · code2wav queued p50 was measured in the baseline (30 values) ' +
        'and not in the candidate (none of 30 measured: 30 no stage table ([OmniTiming] only)): the candidate lost a measurement',
    ),
    rule.stderr,
  );
});

test('an INFO-level run keeps its words: the cells say INFO level, and its JSON run has no debugLines', () => {
  const table = cli(['compare', 'debug.log', 'info.log'], { cwd: dir });
  assert.equal(table.status, 0, table.stderr);
  assert.ok(
    table.stdout.includes(
      '\n  stage 1 · code2wav queued: measured in the baseline only (candidate: none of 30 measured: 30 no stage table ([OmniTiming] only, INFO level))\n',
    ),
    table.stdout,
  );
  const json = cli(['compare', 'debug.log', 'info.log', '--format', 'json'], { cwd: dir });
  const doc = JSON.parse(json.stdout) as { baseline: { debugLines?: boolean }; candidate: { debugLines?: boolean } };
  assert.deepEqual([doc.baseline.debugLines, doc.candidate.debugLines], [true, undefined]);
});
