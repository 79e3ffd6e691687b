// The numbers behind the waterfall, per stage, with their states: the accessible twin of
// the picture and the place where "not recorded" and "hidden" are spelled out.
import type { AnalyzedRequest, RequestStage, SplitName } from '../../../server/protocol';
import { formatCompact, formatWithUnit } from '../../shared/format';
import { h } from '../../shared/dom';
import {
  SPLIT_NAMES,
  FIELD_FIRST_OUTPUT,
  FIELD_GEN_TIME,
  FIELD_OMNI_TIMING_STAGE,
  SPLIT_LABEL,
  stageLabel,
} from '../../shared/labels';
import type { ValueView } from '../../shared/valueState';
import { fieldValueView, splitValueView } from '../../shared/valueState';
import { prefillCoversDecode } from '../../../server/shared';

const SPLITS: readonly SplitName[] = SPLIT_NAMES;

/** A cell of a stage table that was never printed (an INFO-level request: [OmniTiming] only). */
const NO_TABLE: ValueView = {
  text: 'no table',
  state: 'notMeasured',
  title:
    'This request printed no [StageRequestStats] table, only its [OmniTiming] line: vLLM-Omni logs its stats tables at DEBUG (VLLM_LOGGING_LEVEL=DEBUG).',
  value: null,
};

/** The stage's time from [OmniTiming] (seconds, 10 ms steps), in ms. */
function omniTimingStageView(stage: RequestStage): ValueView {
  const cell = stage.fields[FIELD_OMNI_TIMING_STAGE];
  if (cell?.state !== 'measured') return NO_TABLE;
  const ms = cell.value * 1000;
  return {
    text: formatCompact(ms),
    state: 'measured',
    title: `stage time from [OmniTiming]: ${formatWithUnit(ms, 'ms')}, printed in 10 ms steps (its stage_gen_time_ms).`,
    value: ms,
  };
}

export class RequestFacts {
  readonly el = h('table', {
    className: 'facts',
    testId: 'request-facts',
    attrs: { 'aria-label': 'Phase values of this request' },
  });

  show(request: AnalyzedRequest | null, stageNames: Readonly<Record<string, string>>): void {
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
            ...SPLITS.map((s) => splitValueView(stage, s, oneOutput)),
            fieldValueView(stage, FIELD_GEN_TIME, 'ms'),
            fieldValueView(stage, FIELD_FIRST_OUTPUT, 'ms'),
          ]
        : [
            // [OmniTiming] only (INFO level): no table was printed, so nothing of it is "hidden";
            // the stage's time is [OmniTiming]'s, in its 10 ms steps.
            ...SPLITS.map(() => NO_TABLE),
            omniTimingStageView(stage),
            NO_TABLE,
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
