// The numbers behind the waterfall, per stage, with their states: the accessible twin of
// the picture and the place where "not recorded" and "hidden" are spelled out.
import type { AnalyzedRequest, SplitName } from '../../../server/protocol';
import { h } from '../../shared/dom';
import { SPLIT_NAMES, FIELD_FIRST_OUTPUT, FIELD_GEN_TIME, SPLIT_LABEL, stageLabel } from '../../shared/labels';
import type { ValueView } from '../../shared/valueState';
import {
  fieldValueView,
  noTableView,
  omniTimingStageView,
  splitValueView,
  type NoTableCause,
} from '../../shared/valueState';
import { prefillCoversDecode } from '../../../server/shared';
import { ttftWaitedView } from '../../shared/ttftWaited';

const SPLITS: readonly SplitName[] = SPLIT_NAMES;

export class RequestFacts {
  readonly el = h('table', {
    className: 'facts',
    testId: 'request-facts',
    attrs: { 'aria-label': 'Phase values of this request' },
  });

  /** `noTable`: why a missing stage table is missing (noTableCauseOf the session's summary). */
  show(
    request: AnalyzedRequest | null,
    stageNames: Readonly<Record<string, string>>,
    noTable: NoTableCause = 'info',
  ): void {
    this.el.hidden = request === null;
    if (request === null) {
      this.el.replaceChildren();
      return;
    }
    const head = h(
      'tr',
      {},
      h('th', { text: 'stage', attrs: { scope: 'col' } }),
      ...SPLITS.map((s) => h('th', { text: SPLIT_LABEL[s], attrs: { scope: 'col' } })),
      h('th', { text: 'gen time', attrs: { scope: 'col' } }),
      h('th', { text: 'first output', attrs: { scope: 'col' } }),
    );
    const rows = request.stages.map((stage) => {
      const oneOutput = prefillCoversDecode(request, stage);
      const cells: ValueView[] = request.hasStageTable
        ? [
            ...SPLITS.map((s) => {
              const view = splitValueView(stage, s, oneOutput);
              return s === 'ttftMs' ? ttftWaitedView(view, request, stage) : view;
            }),
            fieldValueView(stage, FIELD_GEN_TIME, 'ms'),
            fieldValueView(stage, FIELD_FIRST_OUTPUT, 'ms'),
          ]
        : [
            // [OmniTiming] only (INFO level, or a stats logger above DEBUG): no table was printed, so
            // nothing of it is "hidden"; the stage's time is [OmniTiming]'s, in its 10 ms steps.
            ...SPLITS.map(() => noTableView(noTable)),
            omniTimingStageView(stage, noTable),
            noTableView(noTable),
          ];
      const names = [...SPLITS, `field:${FIELD_GEN_TIME}`, `field:${FIELD_FIRST_OUTPUT}`];
      return h(
        'tr',
        { dataset: { stageKey: stage.stageKey } },
        h('th', { text: stageLabel(stage.stageKey, stageNames), attrs: { scope: 'row' } }),
        ...cells.map((v, i) =>
          h(
            'td',
            { title: v.title, dataset: { col: names[i] ?? '' } },
            h('span', { className: 'v', text: v.text, dataset: { state: v.state } }),
          ),
        ),
      );
    });
    this.el.replaceChildren(h('thead', {}, head), h('tbody', {}, rows));
  }
}
