// A log that merges several servers' (kubectl --prefix, docker compose, stern) names the server of
// each request (AnalyzedRequest.server). Per server: how many requests, and their end-to-end time,
// each request's own (endToEndOf), so that a slow pod shows beside the others.
import { endToEndOf } from './endToEnd';
import { percentileOfSorted } from './distribution';
import { SampleSet } from './sampleSet';
import type { AnalyzedRequest, Distribution, Finding } from './types';
import { andList } from '../andList';
import { countOf, durationText } from '../numberText';

export interface ServerSummary {
  /** The server's tag: `pod/vllm-omni-0/vllm`, a compose container's name, `<pod>/<container>` (stern). */
  readonly server: string;
  readonly requests: number;
  /** End to end (ms) over its requests that printed one; null when none did. */
  readonly e2eMs: Distribution | null;
}

/** At most this many servers are summarized: beyond, a merged log is not a handful of pods. */
const MAX_SERVERS = 256;

/** Whether a merged log of `count` servers is offered a pick of one: two or more, and no more than the per-server end to end lists. */
export function offersServerPick(count: number): boolean {
  return count >= 2 && count <= MAX_SERVERS;
}

export class ServerSummaries {
  private readonly servers = new Map<string, { requests: number; e2e: SampleSet }>();

  add(request: AnalyzedRequest): void {
    const server = request.server;
    if (server === undefined) return;
    let entry = this.servers.get(server);
    if (entry === undefined) {
      if (this.servers.size >= MAX_SERVERS) return;
      this.servers.set(server, (entry = { requests: 0, e2e: new SampleSet() }));
    }
    entry.requests += 1;
    const e2e = endToEndOf(request);
    if (e2e !== null) entry.e2e.add(e2e.ms);
  }

  /** Per server, by name; null when no request named one (a log of one server). */
  summary(): ServerSummary[] | null {
    if (this.servers.size === 0) return null;
    return [...this.servers]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([server, { requests, e2e }]) => ({ server, requests, e2eMs: e2e.distribution() }));
  }
}

/** A server is compared with the others from this many end-to-end times each: fewer say little. */
export const SLOW_SERVER_MIN_REQUESTS = 20;
/** Slower: a median end to end at least this many times the others' (the median of their medians). */
const SLOW_SERVER_RATIO = 1.5;

/**
 * The `slow-server` warning: in a log that merges several servers', the servers whose median end
 * to end is well above the others', each request's own time (no cross-server subtraction); null
 * when none is, or fewer than two servers have enough requests to tell.
 */
export function slowServerFinding(servers: readonly ServerSummary[] | null): Finding | null {
  const judged = (servers ?? []).filter(
    (s): s is ServerSummary & { e2eMs: Distribution } => s.e2eMs !== null && s.e2eMs.count >= SLOW_SERVER_MIN_REQUESTS,
  );
  if (judged.length < 2) return null;
  const slow = judged.filter((s) => {
    const others = judged
      .filter((o) => o !== s)
      .map((o) => o.e2eMs.p50)
      .sort((a, b) => a - b);
    return s.e2eMs.p50 >= SLOW_SERVER_RATIO * percentileOfSorted(others, 50);
  });
  if (slow.length === 0 || slow.length === judged.length) return null;
  const rest = judged.filter((s) => !slow.includes(s));
  const figures = (s: ServerSummary & { e2eMs: Distribution }): string =>
    `${s.server} p50 ${durationText(s.e2eMs.p50)}, p90 ${durationText(s.e2eMs.p90)} (${countOf(s.e2eMs.count, 'request')})`;
  return {
    code: 'slow-server',
    severity: 'warning',
    stageId: null,
    // About servers, not some requests: each server's count is in the words.
    requestIds: [],
    requestCount: 0,
    message:
      `Of the ${judged.length} servers this log merges, ${andList(slow.map((s) => s.server))} ${slow.length === 1 ? 'takes' : 'take'} ` +
      `${SLOW_SERVER_RATIO}x the others' median end to end or more: ${slow.map(figures).join('; ')}, against ${rest.map(figures).join('; ')}. ` +
      "Each figure is over that server's own requests. The per-stage rows pool the servers, so they hide this: read the slow server's requests alone " +
      `(stage-lens analyze --server ${slow[0].server}; explain takes --server too), its Engine lines' load in Over Time, its GPU and its deploy config; a load balancer that sends it longer requests makes it look slow too.`,
  };
}
