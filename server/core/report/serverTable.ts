// The table report's end to end per server, for a log that merges several servers' (kubectl
// --prefix, docker compose, stern): a slow pod beside the others. Each request's own time
// (its e2e_total_ms, else its [OmniTiming] total=), over the same requests as the whole.
import type { ServerSummary } from '../analysis/serverSummaries';
import { formatMs, textTable } from '../textTable';

/** None for a log of one server, tagged or not (the whole is that server's). */
export function serverLines(servers: readonly ServerSummary[] | null): string[] {
  if (servers === null || servers.length < 2) return [];
  const rows = servers.map((s) => {
    const d = s.e2eMs;
    return d === null
      ? [s.server, String(s.requests), '0', '-', '-', '-', '-']
      : [
          s.server,
          String(s.requests),
          String(d.count),
          formatMs(d.p50),
          formatMs(d.p90),
          formatMs(d.p99),
          formatMs(d.max),
        ];
  });
  return [
    `End to end per server, ms (this log merges ${servers.length} servers' lines, told apart by their tags; n: requests with an end-to-end time)`,
    ...textTable(['server', 'requests', 'n', 'p50', 'p90', 'p99', 'max'], rows),
  ];
}
