// Messages from a webview are checked before use: the page renders strings from logs and
// scrapes, so the host treats what it posts as untrusted input. Pure.
import { WEBVIEW_COMMANDS, type HistogramParams, type RequestPageParams, type ViewFilter, type WebviewCommand, type WebviewToHost } from '../../server/protocol';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const optInt = (v: unknown): boolean => v === undefined || isInt(v);

/** Largest page the host asks the server for; the request table asks for pages of 50 (PAGE_SIZE in webview/latencyPanel/table/requestTable.ts). */
export const MAX_PAGE = 1000;
const MAX_BINS = 500;
const isWebviewCommand = (v: unknown): v is WebviewCommand => typeof v === 'string' && Object.hasOwn(WEBVIEW_COMMANDS, v);

function filterOf(v: unknown): ViewFilter | null {
  if (!isObj(v) || !optInt(v['stageId']) || !optStr(v['findingCode'])) return null;
  const out: { stageId?: number; findingCode?: string } = {};
  if (v['stageId'] !== undefined) out.stageId = v['stageId'] as number;
  if (v['findingCode'] !== undefined) out.findingCode = v['findingCode'] as string;
  return out;
}

function pageParams(v: unknown): Omit<RequestPageParams, 'sessionId'> | null {
  if (!isObj(v) || !isInt(v['offset']) || !isInt(v['limit'])) return null;
  if (!optStr(v['sortBy']) || !(v['descending'] === undefined || typeof v['descending'] === 'boolean')) return null;
  if (!optStr(v['filterText']) || !optInt(v['stageId']) || !optStr(v['findingCode'])) return null;
  const out: { -readonly [K in keyof Omit<RequestPageParams, 'sessionId'>]: Omit<RequestPageParams, 'sessionId'>[K] } = {
    offset: Math.max(0, v['offset']),
    limit: Math.max(0, Math.min(MAX_PAGE, v['limit'])),
  };
  if (v['sortBy'] !== undefined) out.sortBy = v['sortBy'] as RequestPageParams['sortBy'];
  if (v['descending'] !== undefined) out.descending = v['descending'];
  if (v['filterText'] !== undefined) out.filterText = v['filterText'] as string;
  if (v['stageId'] !== undefined) out.stageId = v['stageId'] as number;
  if (v['findingCode'] !== undefined) out.findingCode = v['findingCode'] as string;
  return out;
}

function histogramParams(v: unknown): Omit<HistogramParams, 'sessionId'> | null {
  if (!isObj(v) || typeof v['stageKey'] !== 'string' || typeof v['metric'] !== 'string' || !isInt(v['bins'])) return null;
  if (!/^(split|field):/.test(v['metric'])) return null;
  return { stageKey: v['stageKey'], metric: v['metric'], bins: Math.max(1, Math.min(MAX_BINS, v['bins'])) };
}

export function parseWebviewMessage(raw: unknown): WebviewToHost | null {
  if (!isObj(raw) || typeof raw['type'] !== 'string') return null;
  switch (raw['type']) {
    case 'ready':
      return { type: 'ready' };
    case 'querySpans':
      return { type: 'querySpans' };
    case 'openLatencyPanel': {
      const filter = filterOf(raw['filter'] ?? {});
      return filter === null ? null : { type: 'openLatencyPanel', filter };
    }
    case 'queryRequests': {
      const params = pageParams(raw['params']);
      return params === null || !isInt(raw['seq']) ? null : { type: 'queryRequests', seq: raw['seq'], params };
    }
    case 'queryRequest':
      return typeof raw['requestId'] === 'string' ? { type: 'queryRequest', requestId: raw['requestId'] } : null;
    case 'queryHistogram': {
      const params = histogramParams(raw['params']);
      return params === null || !isInt(raw['seq']) ? null : { type: 'queryHistogram', seq: raw['seq'], params };
    }
    case 'runCommand':
      return isWebviewCommand(raw['command']) ? { type: 'runCommand', command: raw['command'] } : null;
    default:
      return null;
  }
}
