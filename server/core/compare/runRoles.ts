// The stage roles of one run of a comparison ("talker", "code2wav"), as explain and analyze take
// them: the model its log says it serves, else a saved session's recorded roles, else its names
// (a file's path, a session's deploy file and source), kept only where what its stages printed
// does not contradict them. Its findings name its stages with them, as its tables do.
import type { RunData } from './types';
import { stageRolesOfLog, stageRolesOfNamesOrRecorded } from '../stageRoles';
import { rolesThatFit } from '../analysis/roleFit';

/** What `runStageRolesOf` reads of a run (a log's findings are named before its run is whole). */
export type RunRoleEvidence = Pick<RunData, 'source' | 'pipelineNames' | 'recordedStageRoles' | 'samples'>;

export function runStageRolesOf(run: RunRoleEvidence): Readonly<Record<string, string>> {
  const named = stageRolesOfLog(run.samples?.servedModel ?? null, () =>
    stageRolesOfNamesOrRecorded(run.pipelineNames ?? run.source, run.recordedStageRoles),
  );
  return rolesThatFit(named, run.samples?.stageOutputs ?? []);
}
