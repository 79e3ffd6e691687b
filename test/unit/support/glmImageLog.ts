// A GLM-Image log (AR stage, then a diffusion stage that prints its diffusion fields) written by
// the simulator with DEBUG tables: no upstream-rendered fixture has one (not a test file itself).
import { fixedClock } from '../../../server/simulate/clock';
import { LogWriter } from '../../../server/simulate/logWriter';
import { FIXED_BUILD } from '../../../server/simulate/stageFields';
import { TimingModel } from '../../../server/simulate/timingModel';
import { scenarioTopology } from '../../../server/simulate/topology';

/** Eight GLM-Image requests, the same text every call (seeded model, fixed clock). */
export function glmImageLog(): string {
  const model = new TimingModel(scenarioTopology('glm-image'), {
    seed: 3,
    rps: 4,
    coldStartMs: 0,
    firstArrivalUs: 500_000,
  });
  const writer = new LogWriter(
    { process: 'APIServer pid=1', ansi: false, debug: true, clock: fixedClock() },
    FIXED_BUILD,
  );
  return Array.from({ length: 8 }, () => model.next())
    .map((r) =>
      writer.requestRecords(
        r,
        r.stages.map(() => r.index + 1),
      ),
    )
    .join('');
}
