// The side panel's Prometheus part as data: for each (stage, replica) a deployment reports
// through a Prometheus server, the hosts behind it and the requests it finished per second
// (query_range). A step where Prometheus had no point is a gap, never 0 req/s; a replica
// without a trend series says so. DOM-free (unit-tested in Node).
import type { PrometheusPanel } from '../../server/protocol';
import { formatClock, formatCompact, formatExact } from '../shared/format';
import { stageRole } from '../shared/labels';

export interface ReplicaRowModel {
  readonly key: string;
  /** `stage 1 talker · replica 0` */
  readonly label: string;
  /** The Prometheus instances (host:port) behind the replica, or why there are none. */
  readonly instances: string;
  /** Requests per second, aligned with the trend's times; null where Prometheus had no point. */
  readonly rate: readonly (number | null)[];
  /** The last step's rate (`3.20 req/s`), or `no data` (never `0 req/s` for a missing point). */
  readonly lastText: string;
  readonly lastState: 'measured' | 'noData';
  readonly title: string;
}

export interface PrometheusModel {
  /** `window 5m · evaluated 14:02:11` */
  readonly caption: string;
  readonly rows: readonly ReplicaRowModel[];
}

function replicaLabel(
  stage: string | null,
  replica: string | null,
  stageNames: Readonly<Record<string, string>>,
): string {
  const role = stage === null ? '' : stageRole(stage, stageNames);
  const stagePart = stage === null ? 'pipeline' : `stage ${stage}${role === '' ? '' : ` ${role}`}`;
  return replica === null ? stagePart : `${stagePart} · replica ${replica}`;
}

export function prometheusModel(panel: PrometheusPanel, stageNames: Readonly<Record<string, string>>): PrometheusModel {
  const evaluated =
    panel.evaluatedAt === null ? 'not evaluated yet' : `evaluated ${formatClock(panel.evaluatedAt, false)}`;
  const caption = `window ${panel.window} · ${evaluated}`;
  const trend = panel.trend;
  const rows = panel.replicas.map((r): ReplicaRowModel => {
    const label = replicaLabel(r.stage, r.replica, stageNames);
    const series = trend?.series.find((s) => s.stage === r.stage && s.replica === r.replica);
    const rate = series?.perSecond ?? [];
    const last = rate.length === 0 ? null : (rate[rate.length - 1] ?? null);
    const instances = r.instances.length === 0 ? 'no instance label' : r.instances.join(', ');
    const what =
      trend === null || series === undefined
        ? 'no throughput series from Prometheus yet'
        : `finished requests per second: rate of ${trend.family}_count in ${formatExact(trend.stepSeconds)} s steps, the last ${rate.length} steps (gaps: no point in Prometheus)`;
    return {
      key: `${r.stage ?? ''}\u0000${r.replica ?? ''}`,
      label,
      instances,
      rate,
      lastText: last === null ? 'no data' : `${formatCompact(last)} req/s`,
      lastState: last === null ? 'noData' : 'measured',
      title: `${label} (${instances}): ${what}`,
    };
  });
  return { caption, rows };
}
