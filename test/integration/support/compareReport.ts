// `stage-lens compare a b --format json` as a child process, and an editor's compare report
// written as that JSON, each run's source replaced by a placeholder, so the two compare equal.
import assert from 'node:assert/strict';
import { compareJson } from '../../../server/core/compare';
import type { ComparisonReport } from '../../../server/protocol';
import { runCli } from './cliProcess';

export type CompareJson = ComparisonReport & { rules: unknown; failed: unknown };

export function cliCompare(baseline: string, candidate: string): { json: CompareJson; stderr: string } {
  const run = runCli(['compare', baseline, candidate, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  return { json: JSON.parse(run.stdout) as CompareJson, stderr: run.stderr };
}

/**
 * A report as `compare --format json` prints it (its figures rounded as the CLI rounds them), each
 * run's source, as `baseline` and `candidate` name it (a session's, a folder's, a file's), in its place.
 */
export function withSources(report: ComparisonReport, baseline: string, candidate: string): unknown {
  const json = compareJson(report, []);
  const text = JSON.stringify({
    ...json,
    baseline: { ...json.baseline, source: '<baseline>' },
    candidate: { ...json.candidate, source: '<candidate>' },
  });
  // The notes name each run by its source too.
  return JSON.parse(
    text
      .split(JSON.stringify(baseline).slice(1, -1))
      .join('<baseline>')
      .split(JSON.stringify(candidate).slice(1, -1))
      .join('<candidate>'),
  ) as unknown;
}
