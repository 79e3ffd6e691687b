// The additive breakdown of one request under its waterfall: every part of its end-to-end
// time in the request's order with its state, drawn as a bar only when it has a value (a
// part not measured or hidden is said so, never drawn as 0), then the overlap (time during
// which stages ran at once, counted once) and the residual (what no part explains; negative
// where parts claim more time than the request had). The identity is printed:
// total = Σ parts − overlap + residual.
import type { BreakdownPart, RequestBreakdown } from '../../../server/protocol';
import { h, setChildren } from '../../shared/dom';
import { formatDurationMs } from '../../shared/format';
import { partText, signedMs } from '../../shared/tailModel';
import { EXPLAIN, STATE_TEXT } from '../../shared/valueState';

/** A part's state as shown: `covered` for a one-output stage's decode, which is inside its prefill figure. */
type ShownState = BreakdownPart['state'] | 'covered';

const STATE_WORD: Readonly<Record<ShownState, string>> = {
  measured: '',
  inferred: 'inferred',
  reconstructed: 'reconstructed',
  notMeasured: 'not measured',
  hidden: 'hidden',
  notRecorded: 'not recorded',
  covered: STATE_TEXT.covered,
};

const STATE_TITLE: Readonly<Record<ShownState, string>> = {
  measured: 'printed by the server',
  inferred: 'a hidden row read as 0 by a documented rule',
  reconstructed: 'computed from measured values',
  notMeasured: 'printed as None, or a value the log never carries: its time is in the residual',
  hidden: 'the row is absent from the log table (zero or not measured): its time, if any, is in the residual',
  notRecorded: 'a known lie was detected (codec TTFT 0 with no prefill): not used',
  covered: EXPLAIN.oneOutput,
};

/** The server marks a one-output stage's decode not recorded (its printed 0 is not a time); it is in the prefill+decode row above. */
function shownState(p: BreakdownPart, oneOutput: ReadonlySet<string>): ShownState {
  return p.phase === 'decode' && p.ms === null && p.stageKey !== null && oneOutput.has(p.stageKey)
    ? 'covered'
    : p.state;
}

export class BreakdownStrip {
  readonly el = h('section', {
    className: 'breakdown',
    testId: 'breakdown',
    attrs: { 'aria-label': 'Where the end-to-end time went' },
  });

  show(
    breakdown: RequestBreakdown | null,
    stageNames: Readonly<Record<string, string>>,
    oneOutput: ReadonlySet<string>,
  ): void {
    this.el.hidden = breakdown === null;
    if (breakdown === null) {
      this.el.replaceChildren();
      return;
    }
    const total = breakdown.totalMs;
    const scale = Math.max(1e-9, total ?? 0, ...breakdown.parts.map((p) => p.ms ?? 0));
    const row = (
      key: string,
      label: string,
      ms: number | null,
      state: string,
      title: string,
      kind: string,
    ): HTMLElement => {
      const track = h('span', { className: 'bar-track', attrs: { 'aria-hidden': 'true' } });
      if (ms !== null) {
        const fill = h('span', { className: 'bar-fill', dataset: { kind, state } });
        fill.style.left = '0';
        fill.style.width = `${(Math.min(Math.abs(ms), scale) / scale) * 100}%`;
        if (ms < 0) fill.dataset['negative'] = 'true';
        track.append(fill);
      }
      const value =
        ms === null
          ? STATE_WORD[state as ShownState] || state
          : kind === 'part'
            ? formatDurationMs(ms)
            : signedMs(kind === 'overlap' ? -ms : ms);
      return h(
        'li',
        {
          className: 'breakdown-row',
          testId: 'breakdown-part',
          title,
          dataset: { key, kind, state, ms: ms === null ? '' : String(ms) },
        },
        h('span', { className: 'bar-label', text: label }),
        track,
        h('span', { className: 'bar-excess', dataset: { state }, text: value }),
        h('span', {
          className: 'bar-median muted',
          text: ms !== null && state !== 'measured' && kind === 'part' ? STATE_WORD[state as ShownState] : '',
        }),
      );
    };
    const parts = breakdown.parts.map((p) => {
      const state = shownState(p, oneOutput);
      const label = partText(p, stageNames, oneOutput);
      return row(
        p.key,
        label,
        p.ms,
        state,
        `${label}: ${p.ms === null ? STATE_WORD[state] : formatDurationMs(p.ms)} (${STATE_TITLE[state]})${p.note === null || state === 'covered' ? '' : `. ${p.note}`}`,
        'part',
      );
    });
    const rows = [
      ...parts,
      row(
        'overlap',
        'overlap (stages at once, counted once)',
        breakdown.overlapMs,
        breakdown.overlapPlacement === 'measured' ? 'measured' : 'reconstructed',
        'Time during which two or more parts ran at the same time (async chunk): subtracted once so nothing is summed twice.',
        'overlap',
      ),
      row(
        'residual',
        'residual (what no part explains)',
        breakdown.residualMs,
        breakdown.residualMs === null ? 'notMeasured' : 'measured',
        'End-to-end time minus the parts plus the overlap: final output and orchestration when not measured, gaps between stages; negative when parts claim more time than the request had.',
        'residual',
      ),
    ];
    const identity =
      total === null
        ? 'The log printed no end-to-end time for this request: the parts are shown, the residual is unknown.'
        : `${formatDurationMs(total)} end to end (${breakdown.totalSource ?? ''}) = Σ parts − overlap ${formatDurationMs(breakdown.overlapMs)} + residual ${breakdown.residualMs === null ? '?' : signedMs(breakdown.residualMs)}`;
    setChildren(this.el, [
      h('h3', { text: 'Breakdown' }),
      h('p', { className: 'muted note', testId: 'breakdown-identity', text: identity }),
      h('ul', { className: 'tail-bars breakdown-bars', attrs: { 'aria-label': 'Parts of the end-to-end time' } }, rows),
    ]);
  }
}
