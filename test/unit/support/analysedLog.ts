// A log file read whole through the parser and the analysis, as `analyze` reads it (not a test file itself).
import { readFileSync } from 'node:fs';
import { LogStreamParser } from '../../../server/core/log';
import { StreamAnalysis, type AnalysisSnapshot } from '../../../server/core/analysis/streamAnalysis';

/** The analysis of the file at `file`, or of bytes given as they are, read to the end (its store, its live summary). */
export function analysedStream(file: string | Uint8Array): StreamAnalysis {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(typeof file === 'string' ? readFileSync(file) : file));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

/** The snapshot of analysedStream. */
export function analysedLog(file: string | Uint8Array): AnalysisSnapshot {
  return analysedStream(file).snapshot();
}
