// A snapshot with findings found beside its requests (a /metrics scrape's families stuck at 0)
// after its own: what `analyze --format json` prints and a session's JSON export writes.
import type { AnalysisSnapshot } from './streamAnalysis';
import type { Finding } from './types';

/** The snapshot with `findings` after its own (its lazy parts stay lazy). */
export function snapshotWithFindings(snapshot: AnalysisSnapshot, findings: readonly Finding[]): AnalysisSnapshot {
  return findings.length === 0
    ? snapshot
    : (Object.create(snapshot, { findings: { value: [...snapshot.findings, ...findings] } }) as AnalysisSnapshot);
}
