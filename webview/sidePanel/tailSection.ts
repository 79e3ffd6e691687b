// "Why p99 is slow": the main target's p99 tail (time to first audio on TTS pipelines),
// the three parts with the largest mean excess over their medians with their shares, the
// residual, and one click to the tail requests in Latency Details' table. Keyed rows, so
// a live update edits text and widths only. A part no tail request measured is named with a
// footnote mark, its reason written under the line (as the Tail tab does), not only hovered.
import type { OneRequestTarget, TailAttributionResult, TailFilter } from '../../server/protocol';
import { ONE_REQUEST_NO_TAIL, oneRequestText } from '../../server/shared';
import { button, clear, h, setAttr, setChildren, setData, setText } from '../shared/dom';
import { formatCount } from '../shared/format';
import {
  contributionLimit,
  contributionNote,
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
} from '../shared/tailModel';
import { noteReference, tailFootnotes } from '../shared/tailFootnotes';

const TOP = 3;

export class TailSection {
  readonly el: HTMLElement;
  private readonly target = h('span', { className: 'muted source-note', testId: 'tail-target' });
  private readonly headline = h('p', { className: 'tail-headline', testId: 'tail-headline' });
  /** How many tail requests are cold starts, and whether they make the tail. */
  private readonly cold = h('p', { className: 'muted note', testId: 'tail-cold' });
  /** A p99 from fewer than 100 values is the largest value, not a tail estimate. */
  private readonly fewValues = h('p', { className: 'muted note', testId: 'tail-few-values' });
  private readonly list = h('ul', {
    className: 'tail-parts',
    testId: 'tail-parts',
    attrs: { 'aria-label': 'Parts of the p99 excess' },
  });
  /** Under a first-output target: a part counts only up to it (the whole sentence, naming it, in the title). */
  private readonly contribution = h('p', { className: 'muted note', testId: 'tail-contribution-note' });
  private readonly note = h('p', { className: 'muted note', testId: 'tail-note' });
  /** Why each not-measured part of the note is not measured, numbered as its mark. */
  private readonly reasons = h('div', { className: 'tail-reasons' });
  /** What the note and its reasons show, so a live update with the same words rebuilds nothing. */
  private noteKey = '';
  private readonly overlap = h('p', { className: 'muted note', testId: 'tail-overlap-note' });
  private readonly open: HTMLButtonElement;
  private filter: TailFilter | null = null;

  constructor(onOpen: (tail: TailFilter) => void) {
    this.open = button('Show the tail requests', { className: 'link-button', testId: 'tail-open' }, () => {
      if (this.filter !== null) onOpen(this.filter);
    });
    this.el = h(
      'section',
      { className: 'tail-section', testId: 'tail-section', attrs: { 'aria-label': 'Why p99 is slow' } },
      h('h2', {}, 'Why p99 is slow ', this.target),
      this.headline,
      this.cold,
      this.fewValues,
      this.contribution,
      this.list,
      this.note,
      this.reasons,
      this.overlap,
      this.open,
    );
    this.el.hidden = true;
    this.contribution.hidden = true;
    this.overlap.hidden = true;
    this.fewValues.hidden = true;
    this.cold.hidden = true;
  }

  update(
    result: TailAttributionResult | null,
    stageNames: Readonly<Record<string, string>>,
    oneOutput: ReadonlySet<string>,
  ): void {
    const tail = result?.tails[0];
    const single = result?.oneRequest[0];
    if (result === null || result.mainTarget === null || (tail === undefined && single === undefined)) {
      this.el.hidden = true;
      this.filter = null;
      return;
    }
    if (tail === undefined) {
      if (single !== undefined) this.showOneRequest(single, stageNames);
      return;
    }
    this.el.hidden = false;
    const target = targetText(tail.target, stageNames);
    setText(this.target, target);
    setData(this.el, 'target', tail.target);
    setText(this.headline, tailHeadline(tail));
    const few = tailFewValuesNote(tail);
    setText(this.fewValues, few ?? '');
    this.fewValues.hidden = few === null;
    const cold = tailColdNote(tail);
    setText(this.cold, cold ?? '');
    this.cold.hidden = cold === null;
    this.filter = { target: tail.target, quantile: tail.quantile, ms: tail.thresholdMs };
    setText(this.open, `Show the ${formatCount(tail.requestCount)} tail request${tail.requestCount === 1 ? '' : 's'}`);
    setAttr(
      this.open,
      'aria-label',
      `Open Latency Details on the ${tail.requestCount} requests whose ${target} is at or above its p99`,
    );
    if (tailIsFlat(tail)) {
      clear(this.list);
      this.plainNote('Every request took about the same: there is no tail to explain.');
      this.contribution.hidden = true;
      this.overlap.hidden = true;
      return;
    }
    // The heading names the target already: the note says what it does to a part, not which it is.
    const limit = contributionLimit(tail.target, stageNames);
    setText(this.contribution, limit === null ? '' : 'Each part counts only its time before that first output.');
    this.contribution.title = contributionNote(tail.target, stageNames, tail.upstreamUntilInput) ?? '';
    this.contribution.hidden = limit === null;
    const rows = tailRows(tail, stageNames, TOP, oneOutput);
    const parts = rows.filter((r) => r.kind === 'part');
    const residual = rows.find((r) => r.kind === 'residual');
    const maxShare = Math.max(1e-9, ...parts.map((r) => Math.abs(r.share ?? 0)));
    const items = parts.map((r) => {
      const fill = h('span', { className: 'tail-fill' });
      fill.style.width = `${Math.min(100, (Math.abs(r.share ?? 0) / maxShare) * 100)}%`;
      if (r.excessMs < 0) fill.dataset['negative'] = 'true';
      return h(
        'li',
        {
          testId: 'tail-part',
          dataset: { key: r.key, excessMs: String(r.excessMs), share: String(r.share ?? '') },
          title: r.title,
        },
        h('span', { className: 'tail-label', text: r.label }),
        h('span', { className: 'tail-share', testId: 'tail-share', text: shareText(r.share) }),
        h('span', { className: 'tail-excess muted', text: signedMs(r.excessMs) }),
        h('span', { className: 'tail-bar', attrs: { 'aria-hidden': 'true' } }, fill),
      );
    });
    this.list.replaceChildren(...items);
    const unknown = notMeasuredRows(tail, stageNames, oneOutput);
    const residualText =
      residual === undefined ? '' : `${residual.label} ${signedMs(residual.excessMs)} (${shareText(residual.share)})`;
    const key = JSON.stringify([unknown.map((r) => [r.label, r.note]), residualText]);
    if (key !== this.noteKey) {
      this.noteKey = key;
      const footnotes = tailFootnotes(unknown);
      const parts = unknown.map((r) => [`${r.label}: not measured`, ...noteReference(footnotes.numberOf(r))]);
      if (residualText !== '') parts.push([residualText]);
      setChildren(
        this.note,
        parts.flatMap((p, i) => (i === 0 ? p : [' · ', ...p])),
      );
      setChildren(this.reasons, [footnotes.list]);
    }
    this.note.title = [...unknown.map((r) => r.title), residual?.title ?? ''].filter((x) => x !== '').join('\n');
    setData(this.note, 'testResidual', residual === undefined ? '' : String(residual.excessMs));
    const overlap = tailOverlapNote(tail, stageNames, oneOutput);
    setText(this.overlap, overlap ?? '');
    this.overlap.hidden = overlap === null;
  }

  /** The main target measured by one request: explain's line, with its value; no parts (each would be +0 ms). */
  private showOneRequest(o: OneRequestTarget, stageNames: Readonly<Record<string, string>>): void {
    this.el.hidden = false;
    setText(this.target, targetText(o.target, stageNames));
    setData(this.el, 'target', o.target);
    setText(this.headline, oneRequestText(o, stageNames));
    clear(this.list);
    this.plainNote(`${ONE_REQUEST_NO_TAIL}.`);
    this.note.title = '';
    setData(this.note, 'testResidual', '');
    for (const el of [this.cold, this.fewValues, this.contribution, this.overlap]) el.hidden = true;
    this.filter = { target: o.target, quantile: 'p99', ms: o.valueMs };
    setText(this.open, 'Show the request');
    setAttr(this.open, 'aria-label', `Open Latency Details on request ${o.requestId}`);
  }

  /** A note with no part in it, and so no reason under it. */
  private plainNote(text: string): void {
    this.noteKey = '';
    setText(this.note, text);
    clear(this.reasons);
  }
}
