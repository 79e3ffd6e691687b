// Start Demo Server asks before it launches the simulator on a deploy config: can the
// simulator run it? Answered by the simulator's own check (server/simulate/deployConfigFit.ts,
// on the file and its bases as the simulator reads them), so the demo never starts a process
// that would only print a usage error, and the user is told why before anything runs.
import type { DemoConfigCheckParams, DemoConfigCheckResult } from '../protocol';
import { deployConfigCannotRun } from '../simulate/deployConfig';
import { SCENARIOS, type ScenarioName } from '../simulate/topology';

export function demoConfigCheck(params: DemoConfigCheckParams): DemoConfigCheckResult {
  const scenario = params.scenario;
  if (scenario !== undefined && !(SCENARIOS as readonly string[]).includes(scenario))
    return { cannotRun: `--scenario must be one of ${SCENARIOS.join(', ')}, got '${scenario}'` };
  return { cannotRun: deployConfigCannotRun(params.deployConfig, scenario as ScenarioName | undefined) };
}
