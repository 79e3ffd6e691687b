// The simulator's argument vector for Start Demo Server. With a deploy config open, the
// simulator runs that config (its stages, replicas, model runner, async chunk and connector
// extras, talker_first_audio included), so the session matched to it is one that ran it: the
// config's evidence then agrees with the numbers instead of saying the session ran another
// config. The demo scenario setting is kept when it is that file's pipeline; otherwise the
// simulator takes the pipeline from the file. Free of the VS Code API (unit-tested).
import * as path from 'node:path';
import { stageRolesOf } from '../server/shared';

export interface DemoLaunch {
  /** Node, or an Electron executable run as Node. */
  readonly node: string;
  /** The bundled CLI (dist/cli.js). */
  readonly cli: string;
  readonly scenario: string;
  readonly rps: number;
  readonly port: number;
  /** The deploy config in the active editor, or null. */
  readonly deployConfig: string | null;
}

/** Whether the scenario simulates the pipeline the file is named after (both known, the same roles). */
function scenarioFits(scenario: string, deployConfig: string): boolean {
  const simulated = Object.values(stageRolesOf(scenario)).join();
  return simulated !== '' && simulated === Object.values(stageRolesOf(path.basename(deployConfig))).join();
}

/** The `--scenario` passed with a deploy config: the demo's, when it is the file's pipeline. */
export function demoScenarioFor(scenario: string, deployConfig: string): string | undefined {
  return scenarioFits(scenario, deployConfig) ? scenario : undefined;
}

export function demoSimulatorArgv(d: DemoLaunch): string[] {
  const scenario = d.deployConfig === null ? undefined : demoScenarioFor(d.scenario, d.deployConfig);
  const pipeline =
    d.deployConfig === null
      ? ['--scenario', d.scenario, '--talker-first-audio']
      : ['--deploy-config', d.deployConfig, ...(scenario === undefined ? [] : ['--scenario', scenario])];
  return [
    d.node,
    d.cli,
    'simulate',
    ...pipeline,
    '--stats-build',
    'before-fix',
    '--color',
    '--port',
    String(d.port),
    '--rps',
    String(d.rps),
  ];
}
