// DOM of the Compare Sessions panel, built from the DOM-free model: every string goes in
// as text (report strings come from logs and paths), positions through the CSSOM.
import {
  CHANGE_LABEL,
  histogramNoDiffText,
  NOT_MEASURED_CELL,
  sentenceCase,
  tailNotes,
  tailRows,
  tailSideText,
  targetLabel,
  tooFewToTestText,
} from '../../server/shared';
import type { ComparisonReport, HistogramComparison, TailComparison } from '../../server/protocol';
import type { CompareRendered } from '../../server/protocol';
import { h } from '../shared/dom';
import {
  findingLine,
  headline,
  histogramCountsText,
  histogramSideText,
  isFlagged,
  legendKeys,
  stageGroups,
} from './model';
import type { CompareHeading, RunLine } from './header';
import type { LegendKeys, MetricRow, QuantileCell, Significance, StageGroup } from './model';

function ciBarElement(c: QuantileCell): HTMLElement | null {
  if (c.bar === null) return null;
  const track = h('span', { className: 'ci-track', attrs: { 'aria-hidden': 'true' } });
  const range = h('span', { className: 'ci-range' });
  const zero = h('span', { className: 'ci-zero' });
  const point = h('span', { className: 'ci-point' });
  range.style.left = `${Math.min(c.bar.low, c.bar.high)}%`;
  range.style.width = `${Math.max(0.5, Math.abs(c.bar.high - c.bar.low))}%`;
  zero.style.left = `${c.bar.zero}%`;
  point.style.left = `${c.bar.point}%`;
  track.append(range, zero, point);
  return track;
}

const SIG_MARK = { up: '▲', down: '▼', shift: '◆', none: '', untestable: '' } as const;
const SIG_LABEL = {
  up: 'longer: a change',
  down: 'shorter: a change',
  shift: 'shifted relative to the upstream stage: a change, neither faster nor slower by itself',
  none: 'not flagged',
  untestable: 'not testable',
} as const;

function quantileCell(c: QuantileCell): HTMLElement {
  return h(
    'td',
    {
      className: 'q',
      title: c.title,
      dataset: { sig: c.significance, col: c.quantile },
      attrs: { 'aria-label': `${c.quantile} ${c.values}, ${c.change}, ${SIG_LABEL[c.significance]}` },
    },
    h('div', { className: 'values v', text: c.values, dataset: { state: 'measured' } }),
    h('div', { className: 'change' }, h('span', { className: 'mark', text: SIG_MARK[c.significance] }), c.change),
    c.note === '' ? null : h('div', { className: 'note', text: c.note, testId: 'compare-note' }),
    ciBarElement(c),
  );
}

function metricRow(r: MetricRow): HTMLTableRowElement {
  const head = [
    h('th', { className: 'metric', text: r.metric, title: r.source, attrs: { scope: 'row' } }),
    h('td', { className: 'n', text: r.counts, title: 'measured values: baseline / candidate' }),
  ];
  const body =
    r.cells !== null
      ? r.cells.map(quantileCell)
      : [
          h(
            'td',
            { className: 'one-sided', attrs: { colspan: '3' } },
            h('span', {
              className: 'v',
              text: r.oneSided?.text ?? '',
              dataset: { state: r.oneSided?.state ?? 'hidden' },
              title: 'Not a difference: a value that was not measured is never compared as 0.',
            }),
          ),
        ];
  const rank = h('td', {
    className: 'rank',
    text: r.rank,
    dataset: { beyond: String(r.rankBeyond) },
    title: 'Mann-Whitney U, two-sided p-value of the whole distribution',
  });
  return h('tr', { testId: 'compare-row', dataset: { key: r.key } }, ...head, ...body, rank);
}

function stageTable(groups: readonly StageGroup[], confidence: number): HTMLElement {
  const pct = Math.round(confidence * 1000) / 10;
  const bars = legendKeys(groups).bars ? `; bars: ${pct}% CI of the difference` : '';
  const thead = h(
    'thead',
    {},
    h(
      'tr',
      {},
      h('th', { className: 'metric', text: 'metric', attrs: { scope: 'col' } }),
      h('th', { className: 'n', text: 'n', attrs: { scope: 'col' } }),
      ['p50', 'p90', 'p99'].map((q) => h('th', { className: 'q', text: q, attrs: { scope: 'col' } })),
      h('th', { className: 'rank', text: 'rank test p', title: 'Mann-Whitney U', attrs: { scope: 'col' } }),
    ),
  );
  const bodies = groups.map((g) =>
    h(
      'tbody',
      { dataset: { scope: g.scope } },
      h('tr', { className: 'group' }, h('th', { text: g.title, attrs: { colspan: '6', scope: 'rowgroup' } })),
      g.rows.map(metricRow),
    ),
  );
  return h(
    'table',
    {
      className: 'compare-table',
      testId: 'compare-table',
      attrs: { 'aria-label': `Per stage and phase, ms${bars}` },
    },
    thead,
    bodies,
  );
}

function histogramTable(rows: readonly HistogramComparison[]): HTMLElement {
  return h(
    'table',
    { className: 'compare-table histograms', testId: 'compare-histograms' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { text: 'family' }),
        h('th', { text: 'labels' }),
        h('th', { text: 'n' }),
        h('th', { text: 'p50' }),
        h('th', { text: 'p90' }),
        h('th', { text: 'p99' }),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((r) =>
        h(
          'tr',
          {},
          h('th', { text: (r.exposedName ?? r.family) + (r.unit === 'ms' ? ' (ms)' : ''), attrs: { scope: 'row' } }),
          h('td', {
            text: Object.entries(r.labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(', '),
          }),
          h('td', {
            className: 'n',
            text: histogramCountsText(r),
          }),
          ...(histogramNoDiffText(r) === null
            ? r.quantiles.map((q) => {
                const b = histogramSideText(r.baseline, q.quantile, q.baseline);
                const c = histogramSideText(r.candidate, q.quantile, q.candidate);
                const bounded = b.bound || c.bound;
                const change = bounded
                  ? 'a bound: no difference'
                  : q.diffPct === null
                    ? 'n/a'
                    : `${q.diffPct > 0 ? '+' : ''}${q.diffPct.toFixed(1)}%`;
                const title = `histogram quantile: significance not testable.${bounded ? ' ≤ x: every observation up to this rank fell into the lowest bucket, so only its bound x is known (PromQL interpolates from 0 there); ≥ x: the rank fell into the +Inf bucket.' : ''}`;
                return h('td', {
                  className: 'q',
                  dataset: { sig: 'untestable', col: q.quantile },
                  title,
                  text: `${b.text} → ${c.text} (${change})`,
                });
              })
            : [
                h('td', {
                  attrs: { colspan: '3' },
                  text: histogramNoDiffText(r) ?? '',
                }),
              ]),
        ),
      ),
    ),
  );
}

/** Each mark's key in the legend, in the order the legend lists them. */
const LEGEND_KEY: ReadonlyArray<readonly [Significance, string]> = [
  ['up', '▲ longer'],
  ['down', '▼ shorter'],
  ['shift', '◆ shifted relative to the upstream stage (+1st output: not faster or slower by itself)'],
  ['none', 'not a change'],
  ['untestable', 'not testable'],
];

/**
 * The key to the table: only the marks its cells carry and, when a cell draws one, the CI bar
 * (with too few values nothing is testable and no bar is drawn: nothing to explain about them).
 */
function legend(report: ComparisonReport, keys: LegendKeys): HTMLElement {
  const pct = Math.round(report.method.confidence * 1000) / 10;
  const shown = LEGEND_KEY.filter(([sig]) => keys.marks.has(sig));
  const testable = shown.some(([sig]) => sig !== 'untestable');
  const sentences = [
    testable ? `${sentenceCase(report.method.flagged)}.` : '',
    keys.bars
      ? `Bar: ${pct}% bootstrap CI of the difference, | = 0 (beyond noise when the bar does not cross it).`
      : '',
    "Values in ms over measured values only; a change in % is of |baseline| (its sign is the change's where the baseline is negative).",
  ].filter((t) => t !== '');
  return h(
    'p',
    { className: 'legend muted', testId: 'compare-legend' },
    shown.flatMap(([sig, text], i) => [
      h('span', { className: 'swatch', dataset: { sig } }),
      ` ${text}${i === shown.length - 1 ? '.' : ''} `,
    ]),
    sentences.join(' '),
  );
}

export interface Rendered {
  readonly element: HTMLElement;
  readonly rendered: CompareRendered;
}

/** A run's name: pieces that each stay on one line, a break allowed only between them, the whole name on hover. */
export function nameElement(line: RunLine, className: string): HTMLElement {
  return h(
    'span',
    { className, title: line.hover },
    line.pieces.flatMap((p, i) => [
      i === 0 ? null : p.spaceBefore ? ' ' : h('wbr'),
      h('span', { className: 'name-piece', text: p.text, dataset: p.cut ? { cut: 'true' } : {} }),
    ]),
  );
}

/** The title's text: both names, each breaking only between its pieces. */
export function titleChildren(heading: CompareHeading): Array<Node | string> {
  return ['Stage Lens: ', nameElement(heading.baseline, 'run-name'), ' → ', nameElement(heading.candidate, 'run-name')];
}

/**
 * "Baseline  <name> · 6 requests · logged …": the role in a column of its own, the run in the
 * next (a long name wraps within it, never under the role), each fact kept on one line.
 */
export function runRow(role: string, testId: string, line: RunLine): HTMLElement {
  const facts = line.facts.flatMap((f) => [
    ' · ',
    h('span', { className: 'run-fact', text: f.text, ...(f.title === null ? {} : { title: f.title }) }),
  ]);
  return h(
    'div',
    { className: 'run' },
    h('span', { className: 'role', text: role }),
    h('span', { className: 'run-line', testId }, nameElement(line, 'run-label'), ...facts),
  );
}

export function renderComparison(
  report: ComparisonReport,
  heading: CompareHeading,
  onlyBeyondNoise: boolean,
): Rendered {
  const groups = stageGroups(report, onlyBeyondNoise);
  const head = headline(report);
  const parts: HTMLElement[] = [
    h(
      'section',
      { className: 'runs', testId: 'compare-runs' },
      runRow('Baseline', 'compare-baseline', heading.baseline),
      runRow('Candidate', 'compare-candidate', heading.candidate),
    ),
    h('p', { className: 'headline', testId: 'compare-headline', text: head.text }),
  ];
  // Two pipelines: every stage row holds one run's stage against another's. Said first, as the CLI does.
  if (report.stagesDiffer != null)
    parts.push(
      h('p', {
        className: 'notice-banner',
        testId: 'compare-stages-differ',
        attrs: { role: 'alert' },
        text: `Warning: ${report.stagesDiffer}`,
      }),
    );
  // Every row would read "not testable" without saying why: said once, under the headline.
  const tooFew = tooFewToTestText(report);
  if (tooFew !== null) parts.push(h('p', { className: 'muted', testId: 'compare-too-few', text: tooFew }));
  if (report.metrics.length > 0) {
    if (groups.length > 0) parts.push(legend(report, legendKeys(groups)));
    parts.push(
      groups.length === 0
        ? h('p', {
            className: 'muted',
            testId: 'compare-nothing',
            text:
              head.tested === 0
                ? 'No difference could be tested.'
                : 'No change (nothing beyond noise and above the practical threshold).',
          })
        : stageTable(groups, report.method.confidence),
    );
  }
  if (report.tail !== undefined && report.tail !== null) parts.push(...tailSection(report.tail));
  if (report.histograms.length > 0)
    parts.push(h('h3', { text: '/metrics histograms (significance not testable)' }), histogramTable(report.histograms));
  parts.push(
    h('h3', { text: 'Findings' }),
    report.findings.length === 0
      ? h('p', { className: 'muted', text: 'No findings in either run.' })
      : h(
          'ul',
          { className: 'findings', testId: 'compare-findings' },
          report.findings.map((f) =>
            h(
              'li',
              { dataset: { change: f.change, code: f.code }, title: f.message },
              h('span', { className: 'badge', text: CHANGE_LABEL[f.change] }),
              findingLine(f),
            ),
          ),
        ),
    h(
      'details',
      { className: 'method' },
      h('summary', { text: 'Method and notes' }),
      h(
        'ul',
        {},
        [
          report.method.bootstrap,
          `Beyond noise: ${report.method.beyondNoise}.`,
          `Changed: ${report.method.flagged}.`,
          report.method.rankTest,
          ...report.notes,
        ].map((t) => h('li', { text: t })),
      ),
    ),
  );
  const element = h('div', { className: 'compare-body' }, parts);

  const texts: Record<string, string> = {};
  let rows = 0;
  let beyond = 0;
  for (const g of groups) {
    for (const r of g.rows) {
      rows++;
      beyond += (r.cells ?? []).filter(isFlagged).length;
    }
  }
  for (const tr of element.querySelectorAll<HTMLElement>('tr[data-key]'))
    texts[tr.dataset['key'] ?? ''] = (tr.textContent ?? '').replace(/\s+/g, ' ').trim();
  const rendered: CompareRendered = {
    rows,
    beyondNoise: beyond,
    findings: report.findings.map((f) => `${f.change}:${f.code}:${f.stageId ?? ''}`),
    texts,
  };
  return { element, rendered };
}

/** A run's tail in phrases that each stay on one line; the line may break only at the space between them. */
function sideCell(t: TailComparison, side: 'baseline' | 'candidate'): HTMLElement {
  const text = tailSideText(t, side);
  // One request, no tail: sentences, wrapped as prose (the request id and value stay in the text).
  if (t.oneRequest[side] !== null)
    return h('td', { className: 'tail-side', testId: `compare-tail-one-request-${side}`, text });
  const phrases = text.split(', ');
  return h(
    'td',
    { className: 'tail-side' },
    phrases.flatMap((p, i) =>
      i < phrases.length - 1
        ? [h('span', { className: 'nowrap', text: `${p},` }), ' ']
        : [h('span', { className: 'nowrap', text: p })],
    ),
  );
}

function excessCell(text: string): HTMLElement {
  return text === NOT_MEASURED_CELL
    ? h('td', { className: 'muted', dataset: { notMeasured: 'true' }, text })
    : h('td', { text });
}

/** Where the p99 excess lies in each run, side by side, with the sentence that says where it went. */
function tailSection(t: TailComparison): HTMLElement[] {
  const rows = tailRows(t);
  const notes = tailNotes(t);
  return [
    h('h3', { text: `Where the p99 excess went: ${targetLabel(t.target, t.stageRoles)}` }),
    h('p', {
      className: 'tail-sentence',
      testId: 'compare-tail-sentence',
      text: sentenceCase(t.sentence),
    }),
    // Scrolls inside its own box when even wrapped labels leave it wider than the panel.
    h(
      'div',
      { className: 'tail-scroll', testId: 'compare-tail-scroll' },
      h(
        'table',
        {
          className: 'tail-table',
          testId: 'compare-tail',
          attrs: { 'aria-label': 'Mean excess over the median in the p99 tail, per part, in each run' },
        },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { attrs: { scope: 'col' }, text: 'part' }),
            h('th', { attrs: { scope: 'col' }, text: 'baseline' }),
            h('th', { attrs: { scope: 'col' }, text: 'candidate' }),
          ),
        ),
        h(
          'tbody',
          {},
          h(
            'tr',
            { className: 'muted' },
            h('th', { attrs: { scope: 'row' }, text: 'tail' }),
            sideCell(t, 'baseline'),
            sideCell(t, 'candidate'),
          ),
          rows.map((r) =>
            h(
              'tr',
              { dataset: { tailPart: r.label } },
              h('th', { attrs: { scope: 'row' }, text: r.label }),
              excessCell(r.baseline),
              excessCell(r.candidate),
            ),
          ),
        ),
      ),
    ),
    ...(notes.length === 0
      ? []
      : [
          h(
            'ul',
            { className: 'tail-notes muted', testId: 'compare-tail-notes' },
            notes.map((n) => h('li', { text: n })),
          ),
        ]),
  ];
}
