// Messages from a webview are checked before use: the page renders strings from logs and
// scrapes, so the host treats what it posts as untrusted input. Pure.
import {
  WEBVIEW_COMMANDS,
  type ExplainScope,
  type HistogramParams,
  type LoadQuery,
  type OverTimeQuery,
  type RequestPageParams,
  type TailFilter,
  type TailQuantile,
  type TailQuery,
  type TargetAtLeast,
  type ViewFilter,
  type WebviewCommand,
  type WebviewToHost,
} from '../../server/protocol';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const optInt = (v: unknown): boolean => v === undefined || isInt(v);
/** A server boot number (0: requests before the log's first boot marker). */
const isBoot = (v: unknown): v is number => isInt(v) && v >= 0;
/** Longest server name accepted: a tag of a merged log (`pod/vllm-omni-0/vllm`), never this long. */
export const MAX_SERVER_NAME = 512;
/** A server of a merged log, by the name its lines' tag gives it. */
const isServer = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_SERVER_NAME;

/** Largest page the host asks the server for; the request table asks for pages of 50 (PAGE_SIZE in webview/latencyPanel/table/requestTable.ts). */
export const MAX_PAGE = 1000;
const MAX_BINS = 500;
const isWebviewCommand = (v: unknown): v is WebviewCommand =>
  typeof v === 'string' && Object.hasOwn(WEBVIEW_COMMANDS, v);
const QUANTILES: readonly TailQuantile[] = ['p90', 'p95', 'p99'];
/** Longest target name accepted (`stage12_3.firstOutput` is 21). */
const MAX_TARGET = 64;
const MAX_METRICS = 32;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isTarget = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_TARGET;
const isQuantile = (v: unknown): v is TailQuantile => (QUANTILES as readonly unknown[]).includes(v);

/** A scope: numbers, a boolean, a boot number and a server name only; undefined when absent, null when malformed. */
function scopeOf(v: unknown): ExplainScope | undefined | null {
  if (v === undefined) return undefined;
  if (!isObj(v)) return null;
  const out: { fromMs?: number; toMs?: number; excludeCold?: boolean; boot?: number; server?: string } = {};
  if (v['fromMs'] !== undefined) {
    if (!isNum(v['fromMs'])) return null;
    out.fromMs = v['fromMs'];
  }
  if (v['toMs'] !== undefined) {
    if (!isNum(v['toMs'])) return null;
    out.toMs = v['toMs'];
  }
  if (v['excludeCold'] !== undefined) {
    if (typeof v['excludeCold'] !== 'boolean') return null;
    out.excludeCold = v['excludeCold'];
  }
  if (v['boot'] !== undefined) {
    if (!isBoot(v['boot'])) return null;
    out.boot = v['boot'];
  }
  if (v['server'] !== undefined) {
    if (!isServer(v['server'])) return null;
    out.server = v['server'];
  }
  return out;
}

function atLeastOf(v: unknown): TargetAtLeast | null {
  return isObj(v) && isTarget(v['target']) && isNum(v['ms']) ? { target: v['target'], ms: v['ms'] } : null;
}

function tailFilterOf(v: unknown): TailFilter | null {
  const at = atLeastOf(v);
  return at !== null && isObj(v) && isQuantile(v['quantile']) ? { ...at, quantile: v['quantile'] } : null;
}

function filterOf(v: unknown): ViewFilter | null {
  if (!isObj(v) || !optInt(v['stageId']) || !optStr(v['findingCode'])) return null;
  const out: { stageId?: number; findingCode?: string; tail?: TailFilter } = {};
  if (v['stageId'] !== undefined) out.stageId = v['stageId'] as number;
  if (v['findingCode'] !== undefined) out.findingCode = v['findingCode'] as string;
  if (v['tail'] !== undefined) {
    const tail = tailFilterOf(v['tail']);
    if (tail === null) return null;
    out.tail = tail;
  }
  return out;
}

function tailQuery(v: unknown): TailQuery | null {
  if (!isObj(v)) return null;
  const scope = scopeOf(v['scope']);
  if (scope === null) return null;
  if (v['target'] !== undefined && !isTarget(v['target'])) return null;
  if (v['quantile'] !== undefined && !isQuantile(v['quantile'])) return null;
  if (v['byBoot'] !== undefined && typeof v['byBoot'] !== 'boolean') return null;
  return {
    ...(v['target'] === undefined ? {} : { target: v['target'] as string }),
    ...(v['quantile'] === undefined ? {} : { quantile: v['quantile'] as TailQuantile }),
    ...(scope === undefined ? {} : { scope }),
    ...(v['byBoot'] === true ? { byBoot: true } : {}),
  };
}

function loadQuery(v: unknown): LoadQuery | null {
  const q = tailQuery(v);
  if (q === null) return null;
  const { byBoot: _byBoot, ...rest } = q;
  return rest;
}

function overTimeQuery(v: unknown): OverTimeQuery | null {
  if (!isObj(v)) return null;
  const scope = scopeOf(v['scope']);
  if (scope === null) return null;
  const metrics = v['metrics'];
  if (metrics !== undefined && !(Array.isArray(metrics) && metrics.length <= MAX_METRICS && metrics.every(isTarget)))
    return null;
  // The step and window are the server's choice from the data's rate unless given sensibly.
  const stepMs = v['stepMs'];
  const windowMs = v['windowMs'];
  if (stepMs !== undefined && !(isNum(stepMs) && stepMs >= 100)) return null;
  if (windowMs !== undefined && !(isNum(windowMs) && windowMs >= 100)) return null;
  return {
    ...(scope === undefined ? {} : { scope }),
    ...(metrics === undefined ? {} : { metrics: metrics as string[] }),
    ...(stepMs === undefined ? {} : { stepMs: stepMs as number }),
    ...(windowMs === undefined ? {} : { windowMs: windowMs as number }),
  };
}

function pageParams(v: unknown): Omit<RequestPageParams, 'sessionId'> | null {
  if (!isObj(v) || !isInt(v['offset']) || !isInt(v['limit'])) return null;
  if (!optStr(v['sortBy']) || !(v['descending'] === undefined || typeof v['descending'] === 'boolean')) return null;
  if (!optStr(v['filterText']) || !optInt(v['stageId']) || !optStr(v['findingCode'])) return null;
  const out: { -readonly [K in keyof Omit<RequestPageParams, 'sessionId'>]: Omit<RequestPageParams, 'sessionId'>[K] } =
    {
      offset: Math.max(0, v['offset']),
      limit: Math.max(0, Math.min(MAX_PAGE, v['limit'])),
    };
  if (v['sortBy'] !== undefined) out.sortBy = v['sortBy'] as RequestPageParams['sortBy'];
  if (v['descending'] !== undefined) out.descending = v['descending'];
  if (v['filterText'] !== undefined) out.filterText = v['filterText'] as string;
  if (v['stageId'] !== undefined) out.stageId = v['stageId'] as number;
  if (v['findingCode'] !== undefined) out.findingCode = v['findingCode'] as string;
  const scope = scopeOf(v['scope']);
  if (scope === null) return null;
  if (scope !== undefined) out.scope = scope;
  if (v['atLeast'] !== undefined) {
    const atLeast = atLeastOf(v['atLeast']);
    if (atLeast === null) return null;
    out.atLeast = atLeast;
  }
  return out;
}

function histogramParams(v: unknown): Omit<HistogramParams, 'sessionId'> | null {
  if (!isObj(v) || typeof v['stageKey'] !== 'string' || typeof v['metric'] !== 'string' || !isInt(v['bins']))
    return null;
  if (!/^(split|field):/.test(v['metric'])) return null;
  const scope = scopeOf(v['scope']);
  if (scope === null) return null;
  return {
    stageKey: v['stageKey'],
    metric: v['metric'],
    bins: Math.max(1, Math.min(MAX_BINS, v['bins'])),
    ...(scope === undefined ? {} : { scope }),
  };
}

export function parseWebviewMessage(raw: unknown): WebviewToHost | null {
  if (!isObj(raw) || typeof raw['type'] !== 'string') return null;
  switch (raw['type']) {
    case 'ready':
      return { type: 'ready' };
    case 'querySpans': {
      if (!isInt(raw['seq'])) return null;
      const scope = scopeOf(raw['scope']);
      if (scope === null) return null;
      return { type: 'querySpans', seq: raw['seq'], ...(scope === undefined ? {} : { scope }) };
    }
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
    case 'queryTail': {
      const params = tailQuery(raw['params']);
      return params === null || !isInt(raw['seq']) ? null : { type: 'queryTail', seq: raw['seq'], params };
    }
    case 'queryLoad': {
      const params = loadQuery(raw['params']);
      return params === null || !isInt(raw['seq']) ? null : { type: 'queryLoad', seq: raw['seq'], params };
    }
    case 'queryOverTime': {
      const params = overTimeQuery(raw['params']);
      return params === null || !isInt(raw['seq']) ? null : { type: 'queryOverTime', seq: raw['seq'], params };
    }
    case 'selectBoot':
      return typeof raw['sessionId'] === 'string' && (raw['boot'] === null || isBoot(raw['boot']))
        ? { type: 'selectBoot', sessionId: raw['sessionId'], boot: raw['boot'] }
        : null;
    case 'selectServer':
      return typeof raw['sessionId'] === 'string' && (raw['server'] === null || isServer(raw['server']))
        ? { type: 'selectServer', sessionId: raw['sessionId'], server: raw['server'] }
        : null;
    case 'runCommand':
      return isWebviewCommand(raw['command']) ? { type: 'runCommand', command: raw['command'] } : null;
    default:
      return null;
  }
}
