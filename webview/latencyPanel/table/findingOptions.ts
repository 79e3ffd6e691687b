// The finding filter's options as data (DOM-free): each finding code that names requests, with
// how many it names in all.
import type { Finding } from '../../../server/protocol';
import { findingRequestsText, formatCount } from '../../shared/format';

/**
 * One option per finding code with the requests it names in all (requestCount: the id lists
 * of live summaries are capped): `cold-start (339 requests)`, or per stage when a code hits
 * several (`negative-interval (stage 0: 3, stage 1: 1 requests)`; one request can be in both).
 */
export function findingOptions(findings: readonly Finding[]): [code: string, text: string][] {
  const byCode = new Map<string, Finding[]>();
  // The filter keeps the requests a finding names: one that names none (a cut .gz, a legacy
  // stats format, boots of different pipelines) would only empty the table.
  for (const f of findings) {
    if (f.requestCount === 0) continue;
    const list = byCode.get(f.code);
    if (list === undefined) byCode.set(f.code, [f]);
    else list.push(f);
  }
  return [...byCode].map(([code, list]) => {
    if (list.length === 1) return [code, `${code} (${findingRequestsText(list[0] as Finding)})`];
    const parts = list.map(
      (f) => `${f.stageId === null ? 'all' : `stage ${f.stageId}`}: ${formatCount(f.requestCount)}`,
    );
    return [code, `${code} (${parts.join(', ')} requests)`];
  });
}
