// A Qwen3-Omni log (thinker, talker, code2wav) of 300 requests at 8 requests/s written by the
// simulator with DEBUG tables: enough load that some requests are preempted on stages 0 and 1
// (not a test file itself).
import { fixedClock } from '../../../server/simulate/clock';
import { LogWriter } from '../../../server/simulate/logWriter';
import { FIXED_BUILD } from '../../../server/simulate/stageFields';
import { TimingModel } from '../../../server/simulate/timingModel';
import { scenarioTopology } from '../../../server/simulate/topology';

/** The same text every call (seeded model, fixed clock). */
export function omniPreemptionLog(): string {
  const model = new TimingModel(scenarioTopology('qwen3-omni'), {
    seed: 7,
    rps: 8,
    coldStartMs: 0,
    firstArrivalUs: 500_000,
  });
  const writer = new LogWriter(
    { process: 'APIServer pid=1', ansi: false, debug: true, clock: fixedClock() },
    FIXED_BUILD,
  );
  return Array.from({ length: 300 }, () => model.next())
    .map((r) =>
      writer.requestRecords(
        r,
        r.stages.map(() => r.index + 1),
      ),
    )
    .join('');
}
