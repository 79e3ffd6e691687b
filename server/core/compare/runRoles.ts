// The stage roles of one run of a comparison ("talker", "code2wav"), judged as a session, analyze
// and explain judge a log's (judgeStageRoles): the names its server printed for its stages, else
// the model its log says it serves, else a saved session's recorded roles, else its names (a
// file's path, a session's deploy file and source), kept only where what its stages printed does
// not contradict them. Its findings name its stages with them, as its tables do.
import type { RunData } from './types';
import { stageRolesOfNamesOrRecorded } from '../stageRoles';
import { judgeStageRoles, type JudgedStageRoles } from '../analysis/roleFit';

/** What `runStageRolesOf` reads of a run (a log's findings are named before its run is whole). */
export type RunRoleEvidence = Pick<RunData, 'source' | 'pipelineNames' | 'recordedStageRoles' | 'samples'>;

/** The run's roles, and whether they are the names its server printed. */
export function judgedRunStageRoles(run: RunRoleEvidence): JudgedStageRoles {
  return judgeStageRoles(
    run.samples?.servedModel ?? null,
    () => stageRolesOfNamesOrRecorded(run.pipelineNames ?? run.source, run.recordedStageRoles),
    run.samples?.stageOutputs ?? [],
  );
}

export function runStageRolesOf(run: RunRoleEvidence): Readonly<Record<string, string>> {
  return judgedRunStageRoles(run).roles;
}
