// A downstream TTFT that waited upstream (finding ttft-includes-upstream-wait), marked † in
// every view of one request's values, as the CLI's table marks it: the number is real, but it
// is not the stage's own queueing and prefill.
import type { AnalyzedRequest, RequestStage } from '../../server/protocol';
import { firstStageIdOf, TTFT_WAITED_MARK, TTFT_WAITED_TEXT, ttftUpstreamWaitMs } from '../../server/shared';
import { formatCompact } from './format';
import type { CellView, ValueView } from './valueState';

function waitedMs(request: AnalyzedRequest, stage: RequestStage | undefined): number | null {
  return stage === undefined ? null : ttftUpstreamWaitMs(request, stage, firstStageIdOf(request.stages));
}

/** The TTFT cell's text with the mark, when its request's TTFT waited upstream. */
export function ttftWaitedCell(view: CellView, request: AnalyzedRequest, stage: RequestStage | undefined): CellView {
  return waitedMs(request, stage) === null ? view : { ...view, text: `${view.text}${TTFT_WAITED_MARK}` };
}

/** The TTFT value with the mark and, in its title, what it means and how much waited. */
export function ttftWaitedView(view: ValueView, request: AnalyzedRequest, stage: RequestStage | undefined): ValueView {
  const gap = waitedMs(request, stage);
  return gap === null
    ? view
    : {
        ...view,
        text: `${view.text}${TTFT_WAITED_MARK}`,
        title: `${view.title} ${TTFT_WAITED_MARK} ${TTFT_WAITED_TEXT}: ${formatCompact(gap)} ms beyond its queued + prefill.`,
      };
}
