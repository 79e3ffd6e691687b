// Logs written by the simulator with DEBUG tables, the same text every call (seeded model,
// fixed clock): pipelines and loads no upstream-rendered fixture has (not a test file itself).
import { fixedClock } from '../../../server/simulate/clock';
import { LogWriter } from '../../../server/simulate/logWriter';
import { FIXED_BUILD, type StatsBuild } from '../../../server/simulate/stageFields';
import { TimingModel } from '../../../server/simulate/timingModel';
import { scenarioTopology, type ScenarioName } from '../../../server/simulate/topology';

/** `requests` requests of `scenario` arriving at `rps` requests/s (no cold start). */
export function simulatedLog(
  scenario: ScenarioName,
  seed: number,
  rps: number,
  requests: number,
  build: StatsBuild = FIXED_BUILD,
): string {
  const model = new TimingModel(scenarioTopology(scenario), { seed, rps, coldStartMs: 0, firstArrivalUs: 500_000 });
  const writer = new LogWriter({ process: 'APIServer pid=1', ansi: false, debug: true, clock: fixedClock() }, build);
  return Array.from({ length: requests }, () => model.next())
    .map((r) =>
      writer.requestRecords(
        r,
        r.stages.map(() => r.index + 1),
      ),
    )
    .join('');
}

/** Eight GLM-Image requests (an AR stage, then a diffusion stage that prints its diffusion fields). */
export const glmImageLog = (): string => simulatedLog('glm-image', 3, 4, 8);

/** The same from a build before February 2026: truncated `_ms` integers, 0 for "not measured". */
export const olderGlmImageLog = (): string =>
  simulatedLog('glm-image', 3, 4, 8, { ...FIXED_BUILD, codecFirstAudioFix: false, diffusionMissingValueRule: false });

/** 300 Qwen3-Omni requests at 8/s: enough load that some are preempted on stages 0 and 1. */
export const omniPreemptionLog = (): string => simulatedLog('qwen3-omni', 7, 8, 300);
