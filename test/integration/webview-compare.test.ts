// The Compare Sessions panel in the built bundle in headless Chromium (real HTML shell, strict
// CSP), answered as ComparePanel answers it, on two upstream-rendered Qwen3-TTS logs (six
// requests each) under session titles as long as a launched demo's, and as two imported
// sessions of those logs. At an editor's common widths the header keeps its two columns: a
// run's line that wraps stays beside its role, and "6 requests" stays one phrase; a file name
// is never broken at its hyphens and "imported" is not repeated.
// Screenshots go to test-output/webview/.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadRun } from '../../server/capture/compareInput';
import { compareRuns } from '../../server/core/compare';
import type { CompareResult, CompareRunName } from '../../server/protocol';
import { runNameOfSession } from '../../server/shared';
import { importedLogTitle } from '../../server/core/sessionName';
import { REPO_ROOT, WebviewHarness, sidewaysOverflow } from '../fixtures/webview/browserHarness';
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
let imported: CompareResult;
/**
 * A baseline whose codec printed no prefill or decode and made its first audio after it was scheduled,
 * so its unsplit gen time is "not measured" under time to first audio: `simulate --talker-first-audio
 * --model-runner v2 --async-chunk --stats-build before-fix --requests 12 --seed 3 --fixed-clock --debug-tables`.
 */
let unsplit: CompareResult;

const liveRun = (title: string): CompareRunName => ({ name: title, imported: false, detail: 'stage-lens simulate' });
/** A log imported as a session, titled as the registry titles it (its file and log span). */
const importedRun = (file: string, first: string, last: string): CompareRunName =>
  runNameOfSession({
    kind: 'import',
    title: importedLogTitle({ path: file, deployConfig: null, logSpan: { first, last } }),
    description: path.join(UPSTREAM, file),
    deployConfig: null,
  });

before(async () => {
  const [baseline, candidate] = await Promise.all(
    ['qwen3tts-talker-first-audio-before-fix.log', 'qwen3tts-talker-first-audio-after-fix.log'].map((f) =>
      loadRun(path.join(UPSTREAM, f), { excludeCold: false }),
    ),
  );
  const report = compareRuns(baseline!, candidate!);
  result = { report, baselineRun: liveRun(BASELINE), candidateRun: liveRun(CANDIDATE) };
  const simulated = await loadRun(path.join(REPO_ROOT, 'test/fixtures/sim/talker-first-audio-before-fix-seed3.log'), {
    excludeCold: false,
  });
  unsplit = {
    report: compareRuns(simulated!, candidate!),
    baselineRun: liveRun(BASELINE),
    candidateRun: liveRun(CANDIDATE),
  };
  imported = {
    report,
    baselineRun: importedRun('qwen3tts-talker-first-audio-before-fix.log', '10-19 07:12:04', '10-19 07:12:12'),
    candidateRun: importedRun('qwen3tts-talker-first-audio-after-fix.log', '10-19 07:12:05', '10-19 07:12:12'),
  };
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
          ['compare-baseline', `${BASELINE} · 6 requests · logged 10-19 07:12:04 – 07:12:12`],
          ['compare-candidate', `${CANDIDATE} · 6 requests · logged 10-19 07:12:05 – 07:12:12`],
        ] as const) {
          const g = (await page.evaluate(geometryOf(testId))) as RunGeometry;
          assert.equal(g.text, label);
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

/** The header's name pieces as drawn, read in the page. */
interface NameGeometry {
  readonly title: string;
  readonly titleLines: number;
  readonly runs: string;
  /** Right edge of the title and of the run lines (the tables below may scroll on their own). */
  readonly headerRight: number;
  readonly viewportWidth: number;
  readonly pieces: ReadonlyArray<{
    readonly where: string;
    readonly text: string;
    readonly lines: number;
    readonly clipped: boolean;
    readonly whiteSpace: string;
    readonly top: number;
  }>;
}

const nameGeometry = `(() => {
  const lines = (el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top))).size;
  };
  const title = document.querySelector('[data-testid="compare-title"]');
  const pieces = [...document.querySelectorAll('[data-testid="compare-title"] .name-piece, [data-testid="compare-runs"] .name-piece')];
  return {
    title: title.textContent,
    titleLines: lines(title),
    runs: document.querySelector('[data-testid="compare-runs"]').textContent,
    headerRight: Math.max(
      ...[title, ...document.querySelectorAll('[data-testid="compare-runs"] .run-line')].map((e) => e.getBoundingClientRect().right),
    ),
    viewportWidth: document.documentElement.clientWidth,
    pieces: pieces.map((p) => ({
      where: p.closest('[data-testid]').dataset.testid,
      text: p.textContent,
      lines: lines(p),
      clipped: p.scrollWidth > p.clientWidth,
      whiteSpace: getComputedStyle(p).whiteSpace,
      top: Math.round(p.getBoundingClientRect().top),
    })),
  };
})()`;

describe('compare panel header of two imported logs', () => {
  const BEFORE = 'qwen3tts-talker-first-audio-before-fix.log';
  const AFTER = 'qwen3tts-talker-first-audio-after-fix.log';
  for (const width of [1000, 600]) {
    test(`at ${width} px the file names stay whole, "imported" not shown, each log's own span`, async () => {
      const page = await harness.openCompare(imported, { width, height: 500 });
      try {
        await page.getByTestId('compare-runs').waitFor();
        await page.screenshot({ path: path.join(SHOTS, `compare-imported-${width}.png`) });
        const g = (await page.evaluate(nameGeometry)) as NameGeometry;
        assert.equal(g.title, `Stage Lens: ${BEFORE} → ${AFTER}`);
        assert.equal(
          g.runs,
          `Baseline${BEFORE} · 6 requests · logged 10-19 07:12:04 – 07:12:12` +
            `Candidate${AFTER} · 6 requests · logged 10-19 07:12:05 – 07:12:12`,
        );
        assert.doesNotMatch(`${g.title}\n${g.runs}`, /imported/);
        // Each file name is one piece, drawn on one line, whole (no ellipsis at these widths).
        assert.deepEqual(
          g.pieces.map((p) => [p.where, p.text, p.lines, p.clipped, p.whiteSpace]),
          [
            ['compare-title', BEFORE, 1, false, 'nowrap'],
            ['compare-title', AFTER, 1, false, 'nowrap'],
            ['compare-baseline', BEFORE, 1, false, 'nowrap'],
            ['compare-candidate', AFTER, 1, false, 'nowrap'],
          ],
        );
        assert.ok(g.headerRight <= g.viewportWidth, `the header is wider than the panel: ${JSON.stringify(g)}`);
        // At 600 px the title does not fit one line: it breaks between the names, not inside one.
        const [first, second] = g.pieces;
        if (width === 600) {
          assert.equal(g.titleLines, 2, JSON.stringify(g));
          assert.ok(second!.top > first!.top, JSON.stringify(g));
        } else assert.equal(g.titleLines, 1, JSON.stringify(g));
        assert.deepEqual(await page.evaluate('window.__cspViolations'), []);
      } finally {
        await page.context().close();
      }
    });
  }

  test('a live session vs an imported log at 600 px: "imported" once, the live title breaks between words', async () => {
    const page = await harness.openCompare(
      { ...imported, baselineRun: liveRun(BASELINE) },
      { width: 600, height: 500 },
    );
    try {
      await page.getByTestId('compare-runs').waitFor();
      const g = (await page.evaluate(nameGeometry)) as NameGeometry;
      assert.equal(g.title, `Stage Lens: ${BASELINE} → ${AFTER}`);
      assert.equal(g.runs.match(/imported/g)?.length, 1, g.runs);
      assert.match(g.runs, new RegExp(`^Baseline${BASELINE.replace(/[().]/g, '\\$&')} · 6 requests · logged `));
      assert.match(g.runs, new RegExp(`Candidate${AFTER.replace(/\./g, '\\.')} · imported · 6 requests · logged `));
      // Every word of the live title and the file name: each on one line, none cut.
      assert.deepEqual(
        g.pieces.filter((p) => p.lines !== 1 || p.clipped),
        [],
      );
      assert.ok(g.titleLines > 1, JSON.stringify(g));
      await page.screenshot({ path: path.join(SHOTS, 'compare-live-vs-imported-600.png') });
    } finally {
      await page.context().close();
    }
  });
});

/** How the tail table sits in the panel, read in the page. */
interface TailGeometry {
  readonly pageScrollWidth: number;
  readonly viewportWidth: number;
  readonly boxRight: number;
  readonly boxScrollWidth: number;
  readonly boxClientWidth: number;
  /** Excess cells (not the label, not the tail line) whose text takes more than one line. */
  readonly wrappedNumbers: string[];
  /** Phrases of the tail line cut over two lines. */
  readonly wrappedPhrases: string[];
  readonly labelLines: number;
  readonly notMeasured: string[];
}

const tailGeometry = `(() => {
  const lines = (el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top))).size;
  };
  const box = document.querySelector('[data-testid="compare-tail-scroll"]');
  const rows = [...box.querySelectorAll('tbody tr')];
  const cells = rows.filter((tr) => !tr.classList.contains('muted')).flatMap((tr) => [...tr.querySelectorAll('td')]);
  const label = box.querySelector('tr[data-tail-part*="baseline: gen time not split"] th');
  return {
    pageScrollWidth: document.documentElement.scrollWidth,
    viewportWidth: document.documentElement.clientWidth,
    boxRight: box.getBoundingClientRect().right,
    boxScrollWidth: box.scrollWidth,
    boxClientWidth: box.clientWidth,
    wrappedNumbers: cells.filter((td) => lines(td) > 1).map((td) => td.textContent),
    wrappedPhrases: [...box.querySelectorAll('.nowrap')].filter((s) => lines(s) > 1).map((s) => s.textContent),
    labelLines: label === null ? 0 : lines(label),
    notMeasured: [...box.querySelectorAll('td[data-not-measured]')].map((td) => td.textContent),
  };
})()`;

describe('compare panel tail table', () => {
  for (const width of [800, 1200]) {
    test(`at ${width} px the tail table fits the panel, labels wrap and each number stays on one line`, async () => {
      const page = await harness.openCompare(unsplit, { width, height: 900 });
      try {
        await page.getByTestId('compare-tail').waitFor();
        await page.getByTestId('compare-tail').scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SHOTS, `compare-tail-${width}.png`) });
        const g = (await page.evaluate(tailGeometry)) as TailGeometry;
        assert.ok(
          g.pageScrollWidth <= g.viewportWidth,
          `the page scrolls sideways at ${width} px: ${JSON.stringify(g)}`,
        );
        assert.ok(g.boxRight <= g.viewportWidth, JSON.stringify(g));
        // At an editor's common widths the table fits without its own scrollbar either.
        assert.ok(g.boxScrollWidth <= g.boxClientWidth, `the tail table is cut at ${width} px: ${JSON.stringify(g)}`);
        assert.deepEqual(g.wrappedNumbers, []);
        assert.deepEqual(g.wrappedPhrases, []);
        if (width === 800) assert.ok(g.labelLines > 1, `the long part label does not wrap: ${JSON.stringify(g)}`);
        // The baseline's unsplit gen time: "not measured", never +0 ms, with its reason under the table.
        assert.deepEqual(g.notMeasured, ['not measured']);
        const notes = await page.getByTestId('compare-tail-notes').textContent();
        assert.match(notes ?? '', /baseline, stage 1 · code2wav gen time not split .*: not measured\. /);
        // The codec's input wait, the baseline's wait for the talker: apart, with why.
        assert.match(
          notes ?? '',
          /baseline, apart: stage 1 · code2wav input wait \(\+20\.5 ms\) is the wait for its input from the stages upstream/,
        );
        // The candidate's codec, which ran alongside the talker: its parts apart, with why.
        assert.match(notes ?? '', /candidate, apart: stage 1 · code2wav ran alongside the stages upstream/);
        assert.deepEqual(await page.evaluate('window.__cspViolations'), []);
      } finally {
        await page.context().close();
      }
    });
  }

  test('a baseline codec scheduled only after its first audio: its queued apart with why, no "not measured" gen time', async () => {
    // The upstream log before the fix: the codec's queued time outlasts its first audio (the talker's frame).
    const page = await harness.openCompare(result, { width: 1200, height: 900 });
    try {
      await page.getByTestId('compare-tail').waitFor();
      const g = (await page.evaluate(tailGeometry)) as TailGeometry;
      assert.deepEqual(g.notMeasured, []);
      const notes = (await page.getByTestId('compare-tail-notes').textContent()) ?? '';
      assert.doesNotMatch(notes, /gen time not split/);
      assert.match(
        notes,
        /baseline, apart: stage 1 · code2wav queued \(\+31\.3 ms\) holds the wait for its input .* cannot be told apart from it\./,
      );
    } finally {
      await page.context().close();
    }
  });
});

describe('compare panel stage table', () => {
  for (const width of [1000, 560, 340]) {
    test(`at ${width} px nothing is cut at the panel's edge: the table reflows, one-sided text wraps`, async () => {
      const page = await harness.openCompare(result, { width, height: 900 });
      try {
        await page.getByTestId('compare-table').waitFor();
        await page.screenshot({ path: path.join(SHOTS, `compare-stage-table-${width}.png`), fullPage: true });
        const g = await sidewaysOverflow(page, 'main.compare-panel');
        assert.deepEqual(g.outside, [], `drawn past the panel's edge at ${width} px`);
        assert.ok(g.scrollWidth <= g.clientWidth, `the panel scrolls sideways at ${width} px: ${JSON.stringify(g)}`);
        const page_ = (await page.evaluate(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        )) as number[];
        assert.ok((page_[0] as number) <= (page_[1] as number), `the page scrolls sideways: ${JSON.stringify(page_)}`);
        // Every quantile column and the rank test are there, each number whole on its line.
        const oneSided = page.locator('td.one-sided').first();
        assert.match((await oneSided.textContent()) ?? '', /measured in the candidate only; baseline: 0 of 6 measured/);
        assert.equal(await page.locator('td.q[data-col="p99"]').first().isVisible(), true);
        assert.equal(await page.locator('td.rank').first().isVisible(), true);
      } finally {
        await page.context().close();
      }
    });
  }
});

describe('compare panel of two pipelines (Qwen3-Omni against Qwen3-TTS)', () => {
  test('a warning heads the report, and each stage names what it is in each run', async () => {
    const [omni, tts] = await Promise.all(
      ['qwen3-omni-three-stage-transfers.log', 'qwen3tts-talker-first-audio-after-fix.log'].map((f) =>
        loadRun(path.join(UPSTREAM, f), { excludeCold: false }),
      ),
    );
    const report = compareRuns(omni!, tts!);
    assert.ok(report.stagesDiffer != null);
    const two: CompareResult = {
      report,
      baselineRun: liveRun('qwen3-omni-three-stage-transfers.log'),
      candidateRun: liveRun('qwen3tts-talker-first-audio-after-fix.log'),
    };
    const page = await harness.openCompare(two, { width: 1000, height: 800 });
    try {
      const warning = page.getByTestId('compare-stages-differ');
      await warning.waitFor();
      assert.equal(await warning.textContent(), `Warning: ${report.stagesDiffer}`);
      assert.equal(await warning.isVisible(), true);
      const titles = await page.locator('tr.group th').allTextContents();
      assert.ok(titles.includes('Stage 1 · talker (baseline) / code2wav (candidate)'), JSON.stringify(titles));
      assert.ok(titles.includes('Stage 0 · thinker (baseline) / talker (candidate)'), JSON.stringify(titles));
    } finally {
      await page.context().close();
    }
  });

  test('two runs of one pipeline carry no such warning', async () => {
    const page = await harness.openCompare(result, { width: 1000, height: 800 });
    try {
      await page.getByTestId('compare-runs').waitFor();
      assert.equal(await page.getByTestId('compare-stages-differ').count(), 0);
    } finally {
      await page.context().close();
    }
  });
});

/** The stage table and its legend as drawn, read in the page. */
interface StageTableGeometry {
  /** Every drawn piece of header text: visible header cells and labels put in by CSS (`::before`). */
  readonly headerTexts: string[];
  readonly legend: string;
  /** The marks the legend explains, and those the table's cells carry. */
  readonly legendMarks: string[];
  readonly cellMarks: string[];
  readonly bars: number;
  /** Per compared row: how far its n and rank test values sit from their header's right edge, and whether its name runs into n. */
  readonly misaligned: string[];
  readonly overlapping: string[];
}

const stageTableGeometry = `(() => {
  const table = document.querySelector('[data-testid="compare-table"]');
  const drawn = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).display !== 'none'; };
  const headerTexts = [...table.querySelectorAll('thead th')].filter(drawn).map((th) => th.textContent);
  for (const e of table.querySelectorAll('*')) {
    const c = getComputedStyle(e, '::before').content;
    if (c === 'none' || c === 'normal' || c === '""') continue;
    headerTexts.push(c.startsWith('attr(') ? e.getAttribute(c.slice(5, -1)) : c.replace(/^"|"$/g, '').trim());
  }
  const legend = document.querySelector('.compare-body .legend');
  const right = (e) => e.getBoundingClientRect().right;
  const head = { n: table.querySelector('thead th:nth-child(2)'), rank: table.querySelector('thead th:last-child') };
  const misaligned = [];
  const overlapping = [];
  for (const tr of table.querySelectorAll('tbody tr[data-key]')) {
    if (tr.querySelector('td.q') === null) continue;
    for (const k of ['n', 'rank']) {
      const d = right(tr.querySelector('td.' + k)) - right(head[k]);
      if (Math.abs(d) > 1) misaligned.push(tr.dataset.key + ' ' + k + ' ' + d.toFixed(1));
    }
    const name = tr.querySelector('th.metric').getBoundingClientRect();
    const n = tr.querySelector('td.n').getBoundingClientRect();
    if (name.right > n.left + 0.5 && name.top === n.top) overlapping.push(tr.dataset.key);
  }
  return {
    headerTexts,
    legend: legend === null ? '' : legend.textContent,
    legendMarks: legend === null ? [] : [...legend.querySelectorAll('.swatch')].map((s) => s.dataset.sig),
    cellMarks: [...new Set([...table.querySelectorAll('td.q')].map((td) => td.dataset.sig))],
    bars: [...table.querySelectorAll('.ci-track')].filter(drawn).length,
    misaligned,
    overlapping,
  };
})()`;

describe('compare panel stage table at an editor split in two, and full width', () => {
  let withBars: CompareResult;

  before(async () => {
    // Twelve and thirty requests of the simulator: enough values for a CI, so every cell draws a bar.
    const [baseline, candidate] = await Promise.all(
      ['cold-start-30s.log', 'cold-start-fixed-seed3.log'].map((f) =>
        loadRun(path.join(REPO_ROOT, 'test/fixtures/sim', f), { excludeCold: false }),
      ),
    );
    withBars = {
      report: compareRuns(baseline!, candidate!),
      baselineRun: liveRun('cold-start-30s.log'),
      candidateRun: liveRun('cold-start-fixed-seed3.log'),
    };
  });

  for (const width of [500, 700, 1200]) {
    test(`at ${width} px each header once, the legend only of what is drawn, values under their header`, async () => {
      for (const [name, data, bars] of [
        ['six requests', result, false],
        ['12 vs 30 requests', withBars, true],
      ] as const) {
        const page = await harness.openCompare(data, { width, height: 1000 });
        try {
          await page.getByTestId('compare-table').waitFor();
          await page.screenshot({ path: path.join(SHOTS, `compare-legend-${bars ? 'bars' : 'no-bars'}-${width}.png`) });
          const g = (await page.evaluate(stageTableGeometry)) as StageTableGeometry;
          const at = `${name} at ${width} px: ${JSON.stringify(g)}`;
          // One header for the whole table, whatever its shape: "rank test p" and each quantile once.
          for (const label of ['rank test p', 'n', 'p50', 'p90', 'p99'])
            assert.equal(g.headerTexts.filter((t) => t === label).length, 1, `${label}: ${at}`);
          // The legend explains the bars only where cells draw them, and exactly the marks the cells carry.
          assert.equal(g.bars > 0, bars, at);
          if (bars) assert.match(g.legend, /Bar: 95% bootstrap CI of the difference, \| = 0/, at);
          else assert.doesNotMatch(g.legend, /Bar|CI/, at);
          assert.deepEqual([...g.legendMarks].sort(), [...g.cellMarks].sort(), at);
          assert.deepEqual(g.cellMarks, bars ? ['none'] : ['untestable'], at);
          assert.match(g.legend, /Values in ms over measured values only/);
          assert.deepEqual(g.misaligned, [], at);
          assert.deepEqual(g.overlapping, [], at);
          const o = await sidewaysOverflow(page, 'main.compare-panel');
          assert.deepEqual(o.outside, [], `drawn past the panel's edge: ${name} at ${width} px`);
          assert.ok(o.scrollWidth <= o.clientWidth, `the panel scrolls sideways: ${JSON.stringify(o)}`);
        } finally {
          await page.context().close();
        }
      }
    });
  }
});
