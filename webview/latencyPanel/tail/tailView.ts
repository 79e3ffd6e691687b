// The Tail tab: for a target and a quantile, the parts whose mean excess over their
// medians (within each tail request) makes the tail slow, drawn as bars from a zero line
// (the residual as the residual: negative where stages overlap), the tail requests (one
// click opens a request's timeline), optionally one attribution per server boot; and load
// at arrival: latency by how many requests were in flight when each arrived, tail vs all.
import type {
  Distribution,
  LoadAtArrivalResult,
  OneRequestTarget,
  PreemptionsInTail,
  TailAttribution,
  TailAttributionResult,
  TailFilter,
  TailQuantile,
  TailQuery,
  WebviewToHost,
} from '../../../server/protocol';
import { button, h, setChildren, setText } from '../../shared/dom';
import { formatCount, formatDurationMs } from '../../shared/format';
import { segmented } from '../../shared/segmented';
import {
  contributionNote,
  loadFigures,
  shareText,
  signedMs,
  tailColdNote,
  tailFewValuesNote,
  tailHeadline,
  tailIsFlat,
  tailOverlapNote,
  notMeasuredRows,
  tailRows,
  targetText,
} from '../../shared/tailModel';
import { noteReference, tailFootnotes } from '../../shared/tailFootnotes';
import { ONE_REQUEST_NO_TAIL, oneRequestText, stagePreemptionsText } from '../../../server/shared';

const TOP = 8;
const QUANTILES: readonly TailQuantile[] = ['p90', 'p95', 'p99'];

export interface TailChoice {
  readonly target: string | null;
  readonly quantile: TailQuantile;
  readonly byBoot: boolean;
}

export interface TailViewHost {
  post(message: WebviewToHost): void;
  nextSeq(): number;
  /** Open one request's timeline. */
  openRequest(requestId: string): void;
  /** Show the tail in the request table. */
  showInTable(filter: TailFilter): void;
  changed(choice: TailChoice): void;
}

const dist = (d: Distribution | null, k: 'p50' | 'p90' | 'p99'): string => (d === null ? '–' : formatDurationMs(d[k]));

export class TailView {
  readonly el: HTMLElement;
  private readonly targetSelect = h('select', { testId: 'tail-target', attrs: { 'aria-label': 'Target metric' } });
  private readonly quantileSwitch;
  private readonly byBootBox = h('input', {
    testId: 'tail-by-boot',
    attrs: { type: 'checkbox', 'aria-label': 'One attribution per server boot' },
  });
  private readonly byBootLabel: HTMLElement;
  private readonly status = h('p', { className: 'muted', testId: 'tail-status', role: 'status' });
  private readonly tails = h('div', { className: 'tail-list', testId: 'tail-attributions' });
  private readonly preemptionsSection = h('section', {
    className: 'preemptions-section',
    testId: 'tail-preemptions',
    attrs: { 'aria-label': 'Preemptions' },
  });
  private readonly loadSection = h('section', {
    className: 'load-section',
    testId: 'load-at-arrival',
    attrs: { 'aria-label': 'Load at arrival' },
  });
  /** Everything but `empty`: hidden while no request measured a target (there is none to choose). */
  private readonly body: HTMLElement;
  private readonly emptyText = h('p', {});
  private readonly empty = h('div', { className: 'tail-empty', testId: 'tail-empty', role: 'status' }, this.emptyText);
  /** Why there is no target (noTailText): the session's, set by the panel. */
  private noTargetText = "No request measured a target (end-to-end time or a stage's first output).";
  private choice: TailChoice;
  private scope: TailQuery['scope'];
  private stageNames: Readonly<Record<string, string>> = {};
  /** -1: nothing asked yet (a seq-0 tail pushed by the host is the side panel's, not ours). */
  private tailSeq = -1;
  private loadSeq = -1;
  private targetsKey = '';
  private bootsSeen = 1;

  constructor(
    private readonly host: TailViewHost,
    choice: TailChoice,
  ) {
    this.choice = choice;
    this.quantileSwitch = segmented<TailQuantile>('Quantile', QUANTILES, choice.quantile, 'tail-quantile', (q) =>
      this.choose({ quantile: q }),
    );
    this.targetSelect.addEventListener('change', () =>
      this.choose({ target: this.targetSelect.value === '' ? null : this.targetSelect.value }),
    );
    this.byBootBox.checked = choice.byBoot;
    this.byBootBox.addEventListener('change', () => this.choose({ byBoot: this.byBootBox.checked }));
    this.byBootLabel = h(
      'label',
      { className: 'check', title: 'The session has requests of several server boots: one attribution each' },
      this.byBootBox,
      ' per server boot',
    );
    this.byBootLabel.hidden = true;
    this.body = h(
      'div',
      { className: 'tail-body' },
      h(
        'div',
        { className: 'tail-controls' },
        h('label', { className: 'control' }, 'Target ', this.targetSelect),
        this.quantileSwitch.el,
        this.byBootLabel,
      ),
      this.status,
      this.tails,
      this.preemptionsSection,
      this.loadSection,
    );
    this.empty.hidden = true;
    this.el = h('div', { className: 'tail-view' }, this.empty, this.body);
  }

  /** What the tab says when no request measured a target: what is missing and why (noTailText). */
  setNoTargetText(text: string): void {
    this.noTargetText = text;
    setText(this.emptyText, text);
  }

  setStageNames(names: Readonly<Record<string, string>>): void {
    this.stageNames = names;
  }

  private oneOutput: ReadonlySet<string> = new Set();

  /** Stages whose prefill holds the decode steps (one output): their prefill part is named so. */
  setOneOutput(stages: ReadonlySet<string>): void {
    this.oneOutput = stages;
  }

  /** The scope of every view (Over Time window, exclude cold). */
  setScope(scope: TailQuery['scope']): void {
    this.scope = scope;
  }

  private choose(next: Partial<TailChoice>): void {
    this.choice = { ...this.choice, ...next };
    this.host.changed(this.choice);
    this.query();
  }

  query(): void {
    const params: TailQuery = {
      ...(this.choice.target === null ? {} : { target: this.choice.target }),
      quantile: this.choice.quantile,
      ...(this.scope === undefined ? {} : { scope: this.scope }),
      ...(this.choice.byBoot ? { byBoot: true } : {}),
    };
    this.tailSeq = this.host.nextSeq();
    this.host.post({ type: 'queryTail', seq: this.tailSeq, params });
    const { byBoot: _b, ...load } = params;
    this.loadSeq = this.host.nextSeq();
    this.host.post({ type: 'queryLoad', seq: this.loadSeq, params: load });
  }

  acceptTail(seq: number, result: TailAttributionResult): void {
    if (seq !== this.tailSeq) return;
    const key = result.targets.join('|');
    const target = this.choice.target ?? result.mainTarget;
    if (key !== this.targetsKey || this.targetSelect.value !== (target ?? '')) {
      this.targetsKey = key;
      setChildren(
        this.targetSelect,
        result.targets.map(
          (t) => new Option(`${targetText(t, this.stageNames)}${t === result.mainTarget ? ' (main)' : ''}`, t),
        ),
      );
      this.targetSelect.value = target ?? '';
    }
    // No target to choose: the words alone, not an empty select with quantiles and load at arrival.
    const none = result.targets.length === 0;
    this.empty.hidden = !none;
    this.body.hidden = none;
    if (none) setText(this.emptyText, this.noTargetText);
    const { tails, oneRequest } = result;
    const answered = tails.length + oneRequest.length;
    if (answered > 1) this.bootsSeen = answered;
    // Several boots in the session: offer one attribution each.
    this.byBootLabel.hidden = !(
      this.choice.byBoot ||
      this.bootsSeen > 1 ||
      tails.some((t) => t.boot !== undefined) ||
      oneRequest.some((o) => o.boot !== undefined)
    );
    if (target === null || answered === 0) {
      setText(
        this.status,
        target === null
          ? "No request measured a target yet (end-to-end time or a stage's first output)."
          : `No request in scope measured ${targetText(target, this.stageNames)}.`,
      );
      this.status.hidden = false;
      this.tails.replaceChildren();
      this.showPreemptions(null);
      return;
    }
    // Where only one request measured the target, its block says so: no "why slow" line over it.
    setText(
      this.status,
      tails.length === 0
        ? ''
        : `Why ${targetText(target, this.stageNames)} is slow at ${this.choice.quantile}: each tail request's parts minus their medians, averaged over the tail.`,
    );
    this.status.hidden = tails.length === 0;
    // In boot order, a boot of one request among the boots with a tail.
    const blocks = [
      ...tails.map((t) => ({ boot: t.boot ?? -1, el: this.tailBlock(t) })),
      ...oneRequest.map((o) => ({ boot: o.boot ?? -1, el: this.oneRequestBlock(o) })),
    ].sort((a, b) => a.boot - b.boot);
    setChildren(
      this.tails,
      blocks.map((b) => b.el),
    );
    this.showPreemptions(result.preemptions ?? null);
  }

  /**
   * A target that one request measured (in scope, or in a boot), as explain says it: named, with
   * the request and its value; no bars, since that request is its own median (every part +0 ms).
   */
  private oneRequestBlock(o: OneRequestTarget): HTMLElement {
    const text = oneRequestText(o, this.stageNames);
    const filter: TailFilter = { target: o.target, quantile: this.choice.quantile, ms: o.valueMs };
    return h(
      'section',
      {
        className: 'tail-block',
        testId: 'tail-one-request',
        dataset: {
          target: o.target,
          boot: o.boot === undefined ? '' : String(o.boot),
          requestId: o.requestId,
          valueMs: String(o.valueMs),
        },
        attrs: { 'aria-label': text },
      },
      h('h3', { className: 'tail-headline', testId: 'tail-one-request-text', text }),
      h('p', { className: 'muted', text: `${ONE_REQUEST_NO_TAIL}; its timeline shows this request's parts.` }),
      h(
        'div',
        { className: 'tail-requests' },
        h(
          'ul',
          { className: 'request-links', testId: 'tail-requests' },
          h(
            'li',
            {},
            button(
              o.requestId,
              {
                className: 'link-button request-link',
                testId: 'tail-request',
                dataset: { requestId: o.requestId },
                attrs: { 'aria-label': `Open request ${o.requestId}` },
              },
              () => this.host.openRequest(o.requestId),
            ),
          ),
        ),
        button('Show it in the table', { className: 'secondary', testId: 'tail-show-table' }, () =>
          this.host.showInTable(filter),
        ),
      ),
    );
  }

  /** explain's "Preemptions" section: its reading, then per stage the preempted requests in the tail against all. */
  private showPreemptions(p: PreemptionsInTail | null): void {
    this.preemptionsSection.hidden = p === null;
    if (p === null) {
      this.preemptionsSection.replaceChildren();
      return;
    }
    setChildren(this.preemptionsSection, [
      h('h3', { text: 'Preemptions' }),
      h('p', {
        className: 'muted note',
        text: `${targetText(p.target, this.stageNames)}, ${p.quantile} tail (at or above ${formatDurationMs(p.thresholdMs)}); requests that printed vllm_num_preemptions > 0. A preempted request waits to be scheduled again inside its prefill (preempted before its first token) or its decode (after it); a one-output stage's prefill covers its decode.`,
      }),
      h('p', {
        className: 'preemptions-reading',
        testId: 'preemptions-reading',
        dataset: { reading: p.reading },
        text: p.readingText,
      }),
      h(
        'ul',
        { className: 'preemption-stages', testId: 'preemption-stages' },
        p.stages.map((s) =>
          h('li', {
            testId: 'preemption-stage',
            text: stagePreemptionsText(s, p.tailCount, p.scopeCount, this.stageNames),
          }),
        ),
      ),
    ]);
  }

  /** Until the multi-boot state is known from an answer. */
  noteBoots(boots: number): void {
    this.bootsSeen = Math.max(this.bootsSeen, boots);
  }

  private tailBlock(t: TailAttribution): HTMLElement {
    const rows = tailRows(t, this.stageNames, TOP, this.oneOutput);
    const scale = Math.max(1e-9, ...rows.map((r) => Math.abs(r.excessMs)), Math.abs(t.excessMs));
    // The zero line: at the left edge when nothing is negative (but a rounding residual), else a third in.
    const hasNegative = rows.some((r) => r.excessMs < -0.02 * scale);
    const zero = hasNegative ? 1 / 3 : 0;
    const span = 1 - zero;
    const bars = rows.map((r) => {
      const fill = h('span', { className: 'bar-fill', dataset: { kind: r.kind } });
      const width = (Math.abs(r.excessMs) / scale) * (r.excessMs < 0 ? zero : span);
      fill.style.left = `${(r.excessMs < 0 ? zero - width : zero) * 100}%`;
      fill.style.width = `${width * 100}%`;
      if (r.excessMs < 0) fill.dataset['negative'] = 'true';
      const zeroLine = h('span', { className: 'bar-zero', attrs: { 'aria-hidden': 'true' } });
      zeroLine.style.left = `${zero * 100}%`;
      return h(
        'li',
        {
          className: 'tail-bar-row',
          testId: r.kind === 'residual' ? 'tail-residual' : r.kind === 'overlap' ? 'tail-overlap' : 'tail-bar',
          dataset: { key: r.key, kind: r.kind, excessMs: String(r.excessMs), share: String(r.share ?? '') },
          title: r.title,
        },
        h('span', { className: 'bar-label', text: r.label }),
        h('span', { className: 'bar-track', attrs: { 'aria-hidden': 'true' } }, zeroLine, fill),
        h('span', { className: 'bar-excess', text: signedMs(r.excessMs) }),
        h('span', { className: 'bar-share', text: shareText(r.share) }),
        h('span', {
          className: 'bar-median muted',
          text: r.medianText,
          ...(r.medianTitle === '' ? {} : { title: r.medianTitle, dataset: { state: 'afterTarget' } }),
        }),
      );
    });
    // Before the residual, which holds their time: no bar, no number. Why is said under the
    // bars, each reason once, its footnote mark on the rows it explains (a hover alone is not seen).
    const unknownRows = notMeasuredRows(t, this.stageNames, this.oneOutput);
    const footnotes = tailFootnotes(unknownRows);
    const unknown = unknownRows.map((r) => {
      const n = footnotes.numberOf(r);
      return h(
        'li',
        {
          className: 'tail-bar-row',
          testId: 'tail-not-measured',
          dataset: { key: r.key, kind: 'notMeasured' },
          title: r.title,
        },
        h('span', { className: 'bar-label', text: r.label }),
        h('span', { className: 'bar-track', attrs: { 'aria-hidden': 'true' } }),
        h('span', { className: 'bar-excess', dataset: { state: 'notMeasured' } }, 'not measured', noteReference(n)),
        h('span', { className: 'bar-median muted', text: 'not measured' }),
      );
    });
    const unknownNotes = footnotes.list;
    // Before the wait shown apart and the residual, as explain lists them.
    const apart = rows.findIndex((r) => r.kind === 'overlap' || r.kind === 'residual');
    if (unknown.length > 0) bars.splice(apart === -1 ? bars.length : apart, 0, ...unknown);
    const filter: TailFilter = { target: t.target, quantile: t.quantile, ms: t.thresholdMs };
    const few = tailFewValuesNote(t);
    const cold = tailColdNote(t);
    const overlap = tailIsFlat(t) ? null : tailOverlapNote(t, this.stageNames, this.oneOutput);
    const contribution = tailIsFlat(t) ? null : contributionNote(t.target, this.stageNames, t.upstreamUntilInput);
    const requests = t.requestIds.map((id) =>
      h(
        'li',
        {},
        button(
          id,
          {
            className: 'link-button request-link',
            testId: 'tail-request',
            dataset: { requestId: id },
            attrs: { 'aria-label': `Open request ${id}` },
          },
          () => this.host.openRequest(id),
        ),
      ),
    );
    const more =
      t.requestCount > t.requestIds.length
        ? ` (the slowest ${t.requestIds.length} of ${formatCount(t.requestCount)})`
        : '';
    return h(
      'section',
      {
        className: 'tail-block',
        testId: 'tail-block',
        dataset: {
          target: t.target,
          quantile: t.quantile,
          boot: t.boot === undefined ? '' : String(t.boot),
          thresholdMs: String(t.thresholdMs),
          requestCount: String(t.requestCount),
        },
        attrs: { 'aria-label': tailHeadline(t) },
      },
      h('h3', { className: 'tail-headline', testId: 'tail-headline', text: tailHeadline(t) }),
      cold === null ? null : h('p', { className: 'muted', testId: 'tail-cold', text: cold }),
      few === null ? null : h('p', { className: 'muted', testId: 'tail-few-values', text: few }),
      contribution === null
        ? null
        : h('p', { className: 'muted', testId: 'tail-contribution-note', text: contribution }),
      tailIsFlat(t)
        ? h('p', { className: 'muted', text: 'Every request took about the same: there is no tail to explain.' })
        : h('ul', { className: 'tail-bars', attrs: { 'aria-label': 'Mean excess over the median, per part' } }, bars),
      tailIsFlat(t) ? null : unknownNotes,
      overlap === null ? null : h('p', { className: 'muted', testId: 'tail-overlap-note', text: overlap }),
      h(
        'div',
        { className: 'tail-requests' },
        h('h4', {}, `Tail requests${more}`),
        h('ul', { className: 'request-links', testId: 'tail-requests' }, requests),
        button(
          t.requestCount === 1 ? 'Show it in the table' : `Show all ${formatCount(t.requestCount)} in the table`,
          { className: 'secondary', testId: 'tail-show-table' },
          () => this.host.showInTable(filter),
        ),
      ),
    );
  }

  acceptLoad(seq: number, result: LoadAtArrivalResult): void {
    if (seq !== this.loadSeq) return;
    const load = result.load;
    if (load === null) {
      setChildren(this.loadSection, [
        h('h3', { text: 'Load at arrival' }),
        h('p', { className: 'muted', text: 'The target is not measured in scope.' }),
      ]);
      return;
    }
    const target = targetText(load.target, this.stageNames);
    const head = h(
      'tr',
      {},
      ['in flight at arrival', 'requests', 'tail', `${target} p50`, 'p90', 'p99'].map((t) =>
        h('th', { attrs: { scope: 'col' }, text: t }),
      ),
    );
    const rows = load.buckets.map((b) =>
      h(
        'tr',
        {
          testId: 'load-bucket',
          dataset: { min: String(b.minInFlight), count: String(b.count), tail: String(b.tailCount) },
        },
        h('th', {
          attrs: { scope: 'row' },
          text:
            b.maxInFlight === null
              ? `${b.minInFlight}+`
              : b.minInFlight === b.maxInFlight
                ? String(b.minInFlight)
                : `${b.minInFlight}–${b.maxInFlight}`,
        }),
        h('td', { text: formatCount(b.count) }),
        h('td', { text: formatCount(b.tailCount) }),
        h('td', { text: dist(b.target, 'p50') }),
        h('td', { text: dist(b.target, 'p90') }),
        h('td', { text: dist(b.target, 'p99') }),
      ),
    );
    // The means explain prints, in its words: the statistic the reading above compares.
    const figures = loadFigures(load, this.stageNames);
    const stageRows = figures.stages.map((s) =>
      h(
        'tr',
        { testId: 'load-stage' },
        h('th', { attrs: { scope: 'row' }, text: s.stage }),
        h('td', { text: s.all }),
        h('td', { text: s.tail }),
      ),
    );
    const unknown =
      load.arrivalsUnknown > 0
        ? ` ${formatCount(load.arrivalsUnknown)} request${load.arrivalsUnknown === 1 ? '' : 's'} without an arrival time (no log timestamp or no end-to-end time) ${load.arrivalsUnknown === 1 ? 'is' : 'are'} left out.`
        : '';
    setChildren(this.loadSection, [
      h('h3', { text: 'Load at arrival' }),
      h('p', {
        className: 'load-reading',
        testId: 'load-reading',
        dataset: { reading: load.reading },
        text: load.readingText,
      }),
      h('p', {
        className: 'muted note',
        testId: 'load-note',
        text: `In flight = other requests between their arrival (finish − end to end: e2e_total_ms, else the [OmniTiming] total=, else an older format's e2e_time_ms) and finish, to about ${formatDurationMs(load.resolutionMs)} (log timestamps). ${figures.inFlight}.${unknown}`,
      }),
      load.buckets.length === 0
        ? null
        : scrollBox(
            h(
              'table',
              {
                className: 'load-table',
                testId: 'load-table',
                attrs: { 'aria-label': 'Latency by requests in flight at arrival' },
              },
              h('thead', {}, head),
              h('tbody', {}, rows),
            ),
          ),
      load.stages.length === 0
        ? null
        : scrollBox(
            h(
              'table',
              {
                className: 'load-table',
                testId: 'load-stages',
                attrs: { 'aria-label': figures.stagesTitle },
              },
              h('caption', { className: 'muted', text: figures.stagesTitle }),
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ['stage', 'all', 'tail'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })),
                ),
              ),
              h('tbody', {}, stageRows),
            ),
          ),
    ]);
  }
}

/** A table in a box of its own that scrolls sideways when the table is wider than the panel. */
function scrollBox(table: HTMLElement): HTMLElement {
  return h('div', { className: 'load-scroll' }, table);
}
