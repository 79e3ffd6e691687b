// A whole CSV report as lines (the header first), written by the product's CsvWriter: the
// reference the streaming tests compare with, and what the CSV tests read cells from. No cell
// holds a line break (csvText), so the lines are the rows.
import type { AnalyzedRequest } from '../../../server/core/analysis/types';
import { CsvWriter } from '../../../server/core/report/csvReport';

export function csvRows(requests: Iterable<AnalyzedRequest>): string[] {
  const chunks: Uint8Array[] = [];
  const writer = new CsvWriter((chunk) => chunks.push(chunk));
  for (const r of requests) writer.request(r);
  writer.end();
  return Buffer.concat(chunks).toString('utf8').slice(0, -1).split('\n');
}
