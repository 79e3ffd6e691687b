// The shape check of a stored scrape-findings.json (what a session's /metrics scrapes said of
// metrics that do not report, and of a scrape cut short, so that a reopened session lists and
// exports them again). A
// finding of any other shape (a torn write, another version, a hand edit) is dropped whole,
// never shown in part.
import type { Finding } from '../../core/analysis/types';

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string';
const isTexts = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

const CODES: ReadonlySet<unknown> = new Set(['metric-not-reporting', 'input-cut-short']);

/** The well-formed metric-not-reporting and input-cut-short findings of a parsed scrape-findings.json, in order. */
export function scrapeFindingsFromJson(raw: unknown): Finding[] {
  if (!Array.isArray(raw)) return [];
  const out: Finding[] = [];
  for (const v of raw as unknown[]) {
    if (!isObject(v) || !CODES.has(v['code'])) continue;
    const { code, severity, stageId, requestIds, requestCount, message, family, evidence, knownCauses } = v;
    if (severity !== 'error' && severity !== 'warning' && severity !== 'info') continue;
    if (!(stageId === null || isCount(stageId)) || !isTexts(requestIds) || !isCount(requestCount)) continue;
    if (!isText(message) || !(family === undefined || isText(family))) continue;
    if (!(evidence === undefined || isText(evidence)) || !(knownCauses === undefined || isTexts(knownCauses))) continue;
    out.push({
      code: code === 'input-cut-short' ? 'input-cut-short' : 'metric-not-reporting',
      severity,
      stageId,
      requestIds,
      requestCount,
      message,
      ...(family === undefined ? {} : { family }),
      ...(evidence === undefined ? {} : { evidence }),
      ...(knownCauses === undefined ? {} : { knownCauses }),
    });
  }
  return out;
}
