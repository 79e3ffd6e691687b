// Export Session...: the same JSON schema as `stage-lens analyze --format json`, or CSV.
import { writeFileSync } from 'node:fs';
import { analysisJson } from '../core/report/jsonReport';
import { csvRows } from '../core/report/csvReport';
import type { ExportResult } from '../protocol';
import type { Session } from './session';

export function exportSession(session: Session, format: 'json' | 'csv', path: string): ExportResult {
  const snapshot = session.snapshot();
  const text = format === 'json' ? JSON.stringify(analysisJson(snapshot, [...session.histograms()]), null, 2) + '\n' : csvRows(snapshot.requests).join('\n') + '\n';
  writeFileSync(path, text);
  return { path, bytes: Buffer.byteLength(text), requestCount: snapshot.requests.length };
}
